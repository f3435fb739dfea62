import ComposableCore
import Foundation
import Locking
import TraceKit

/// Records a running feature into a trace file: every action, the state after it, the effects
/// and the values read from non-deterministic dependencies, as the store's core tells them.
///
/// Put `recording(to:)` on the root reducer (or anywhere in its composition outside a
/// `Scope`); the main actor only captures values, a background thread encodes, diffs, hashes
/// and writes them.
///
/// ```swift
/// let recorder = try Recorder(path: "/tmp/session.rewind")
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature().recording(to: recorder)
/// }
/// store.send(.incrementTapped)
/// recorder.finish()                   // hands the end over to the writer, returns at once
/// await recorder.waitUntilFinished()  // the file is complete
/// // /tmp/session.rewind holds step 0 (the initial state) and step 1 (incrementTapped).
/// ```
///
/// With `Configuration.live` set, the recording can also be watched and steered from another
/// terminal (`inspector attach`, see `Recorder.Live`); `Recorder(configuration:)` records in
/// memory only, for live attach, and writes no file.
///
/// A recorder records one store, from the moment the store is created (step 0 is written
/// then); a second store given the same recorder is refused with a runtime warning. A write
/// error (disk full, file removed, permissions) stops the recording with one report; the
/// feature keeps running unrecorded. A recorder dropped without `finish()` finishes itself:
/// its writer thread closes the file and is gone before `deinit` returns.
public final class Recorder: Sendable {
  /// How the recording is made.
  public struct Configuration: Sendable {
    /// A full state snapshot every this many steps (and at step 0).
    public var keyframeInterval: Int
    /// The longest time a recorded step waits before it is committed to the file.
    public var flushInterval: Duration
    /// State paths (`TracePath` text such as `account.password`) whose values are replaced by
    /// a marker holding their stable hash.
    public var redactedStatePaths: [String]
    /// Action paths, relative to the action value (`login.password`), redacted the same way.
    public var redactedActionPaths: [String]
    /// What happens when the writer falls `queueCapacity` events behind.
    public var overflowPolicy: OverflowPolicy
    /// How many captured events (steps, effect starts and endings) may wait for the writer.
    /// The queue is a ring of this many events allocated when the recording starts.
    public var queueCapacity: Int
    /// Free-form metadata stored with the trace (`scenario`, `app`, …).
    public var extra: [String: String]
    /// The clock whose time the trace records for steps and effects; nil (the default) for
    /// the system's monotonic clock. A session run on a virtual clock (a script on a
    /// `TestClock`) records the time its feature lived in, so a test generated from the trace
    /// advances its own test clock as the recording did. Reducer times are always real.
    public var clock: (any Clock<Duration>)?
    /// Live attach: keep the last steps in memory and let an inspector of the same user watch
    /// and steer the app through a socket (nil: off).
    public var live: Live?
    /// Tests only: called by the writer thread before it takes each batch, so a test can hold
    /// the writer back and make the queue overflow deterministically.
    var writerWillTake: (@Sendable () -> Void)?

    public init(
      keyframeInterval: Int = 256,
      flushInterval: Duration = .milliseconds(50),
      redactedStatePaths: [String] = [],
      redactedActionPaths: [String] = [],
      overflowPolicy: OverflowPolicy = .blockProducer,
      queueCapacity: Int = 4096,
      extra: [String: String] = [:],
      clock: (any Clock<Duration>)? = nil,
      live: Live? = nil
    ) {
      self.keyframeInterval = keyframeInterval
      self.flushInterval = flushInterval
      self.redactedStatePaths = redactedStatePaths
      self.redactedActionPaths = redactedActionPaths
      self.overflowPolicy = overflowPolicy
      self.queueCapacity = queueCapacity
      self.extra = extra
      self.clock = clock
      self.live = live
    }
  }

  /// What the recorder does when the writer cannot keep up.
  public enum OverflowPolicy: Sendable, Hashable {
    /// Never lose a step: `send` waits until the writer has room.
    case blockProducer
    /// Drop the step and record a gap with the number of dropped steps.
    case dropAndRecordGap
  }

  /// Where the trace is written (nil: in memory only, for live attach).
  public let path: String?
  /// How it is written.
  public let configuration: Configuration

  private let state = Lock(Attachment.waiting)

  /// What the recorder records.
  private enum Attachment {
    case waiting
    case recording(any RecordingSessionControl, at: SourceLocation)
    case finished((any RecordingSessionControl)?)

    var session: (any RecordingSessionControl)? {
      switch self {
      case .waiting: nil
      case .recording(let session, _): session
      case .finished(let session): session
      }
    }
  }

  /// A recorder that will write a new trace at `path` (the file must not exist).
  ///
  /// - Throws: `RecorderConfigurationError` for a setting it cannot honour, such as a
  ///   redaction path that does not parse (that value would be recorded in the clear).
  public init(path: String, configuration: Configuration = Configuration())
    throws(RecorderConfigurationError)
  {
    try configuration.validate()
    self.path = path
    self.configuration = configuration
  }

  /// A recorder that writes no file: it keeps the last steps in memory for live attach
  /// (`configuration.live`, turned on with its defaults when nil).
  ///
  /// ```swift
  /// let recorder = try Recorder(configuration: .init(live: .init(historySteps: 5_000)))
  /// // inspector attach <pid>; inspector dump <pid> --out session.rewind
  /// ```
  ///
  /// - Throws: `RecorderConfigurationError`, as `init(path:configuration:)` does.
  public init(configuration: Configuration) throws(RecorderConfigurationError) {
    try configuration.validate()
    var configuration = configuration
    if configuration.live == nil { configuration.live = Live() }
    self.path = nil
    self.configuration = configuration
  }

  /// Finishes the recording: captured steps are flushed, effects still running are marked
  /// unfinished, and the trace is closed, by the writer thread. Returns at once; later actions
  /// are not recorded. Await `waitUntilFinished()` to know the file is complete. The writer's
  /// threads are joined once they have ended, whether or not anyone waits: a store that
  /// outlives its recording keeps no finished thread.
  @MainActor
  public func finish() {
    let (session, ends) = state.withLock { state -> ((any RecordingSessionControl)?, Bool) in
      let session = state.session
      let ends = if case .recording = state { true } else { false }
      state = .finished(session)
      return (session, ends)
    }
    session?.finish()
    // The call that ended the recording has its writer joined when it is done (a thread
    // cannot join itself, and this call returns at once); waiters and `deinit` join too, and
    // every join returns once the thread is gone (`WriterThread.join`).
    if ends, let session {
      Task.detached { await session.waitUntilFinished() }
    }
  }

  /// Finishes the recording if it is not finished yet, and waits until the trace is complete
  /// and the writer's threads are gone.
  ///
  /// ```swift
  /// await recorder.waitUntilFinished()
  /// try TraceReader(path: recorder.path!).info().isComplete  // true
  /// ```
  @MainActor
  public func waitUntilFinished() async {
    finish()
    await state.withLock { $0.session }?.waitUntilFinished()
  }

  /// `waitUntilFinished()` for synchronous tools (the benchmarks' harness): blocks the calling
  /// thread until the trace is complete. An app's main thread should await instead.
  @MainActor
  package func finishBlocking() {
    finish()
    state.withLock { $0.session }?.waitUntilFinishedBlocking()
  }

  /// The error that stopped the recording, if one did.
  public var error: RecorderError? {
    state.withLock { $0.session }?.failure
  }

  /// The number of steps recorded so far (step 0 excluded), dropped ones included.
  @MainActor
  public var stepCount: Int {
    state.withLock { $0.session }?.capturedSteps ?? 0
  }

  /// Events captured and not yet taken by the writer (tests wait for it to reach 0).
  @MainActor
  package var queuedEvents: Int {
    state.withLock { $0.session }?.queuedEvents ?? 0
  }

  /// The most events the queue ever held at once (tests check the bound with it).
  @MainActor
  package var queueHighWater: Int {
    state.withLock { $0.session }?.queueHighWater ?? 0
  }

  /// Live requests (jumps, the commands behind them, watches) held back until the history
  /// reaches a step the store captured (tests wait for it).
  var liveRequestsWaiting: Int {
    state.withLock { $0.session }?.live?.server?.requestsWaiting ?? 0
  }

  /// Whether the recording's writer thread was joined, or there is none (tests: a finished
  /// recording leaves no thread unjoined while the Recorder lives).
  var isWriterJoined: Bool {
    state.withLock { $0.session }?.isWriterJoined ?? true
  }

  deinit {
    // Dropped without `finish()`: the recording ends here, and so does its writer thread.
    let session = state.withLock { $0.session }
    session?.finish()
    session?.joinWriter()
  }

  /// The session recording the store being created, or nil (reported) when this recorder
  /// already records a store or was finished.
  @MainActor
  func attach<State: Encodable & Sendable, Action: Encodable & Sendable>(
    kit: CaptureKit<State, Action>, tree: RecorderTree, at location: SourceLocation
  ) -> RecordingSession<State, Action>? {
    let outcome = self.state.withLock { attachment -> Result<Void, RecorderMisuse> in
      switch attachment {
      case .waiting:
        attachment = .recording(
          RecordingSession(path: path, configuration: configuration, tree: tree, kit: kit),
          at: location)
        return .success(())
      case .recording(_, let first):
        return .failure(.secondStore(first: first))
      case .finished:
        return .failure(.finished)
      }
    }
    switch outcome {
    case .success:
      return self.state.withLock { $0.session } as? RecordingSession<State, Action>
    case .failure(let misuse):
      reportIssue(
        misuse.message(path: path ?? "memory", location: location), location: location)
      return nil
    }
  }
}

/// A way a recorder was misused, reported where `recording(to:)` was written.
enum RecorderMisuse: Error {
  case secondStore(first: SourceLocation)
  case finished

  func message(path: String, location: SourceLocation) -> String {
    switch self {
    case .secondStore(let first):
      """
      A Recorder records one store: the recorder writing "\(path)" already records the \
      store of "recording(to:)" at "\(first)", so the store of "recording(to:)" at \
      "\(location)" is not recorded. Give each store its own Recorder.
      """
    case .finished:
      """
      The Recorder writing "\(path)" was finished before the store of "recording(to:)" at \
      "\(location)" was created, so that store is not recorded. Give it a new Recorder.
      """
    }
  }
}

import ComposableCore
import Foundation
import Synchronization
import TraceKit

/// Records a running feature into a trace file: every action, the state after it, the effects
/// and the values read from non-deterministic dependencies.
///
/// Wrap the root reducer with `recording(to:)`; the main actor only captures values, a
/// background thread encodes, diffs, hashes and writes them.
///
/// ```swift
/// let recorder = try Recorder(path: "/tmp/session.rewind")
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature().recording(to: recorder)
/// }
/// store.send(.incrementTapped)
/// recorder.finish()
/// // /tmp/session.rewind holds step 0 (the initial state) and step 1 (incrementTapped).
/// ```
///
/// A recorder records one store; the trace file is created when the store reduces its first
/// action (the state before it is step 0). A write error (disk full, file removed,
/// permissions) stops the recording with one report; the feature keeps running unrecorded.
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
    /// What happens when the writer falls `queueCapacity` steps behind.
    public var overflowPolicy: OverflowPolicy
    /// How many captured steps may wait for the writer.
    public var queueCapacity: Int
    /// Free-form metadata stored with the trace (`scenario`, `app`, …).
    public var extra: [String: String]
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
      extra: [String: String] = [:]
    ) {
      self.keyframeInterval = keyframeInterval
      self.flushInterval = flushInterval
      self.redactedStatePaths = redactedStatePaths
      self.redactedActionPaths = redactedActionPaths
      self.overflowPolicy = overflowPolicy
      self.queueCapacity = queueCapacity
      self.extra = extra
    }
  }

  /// What the recorder does when the writer cannot keep up.
  public enum OverflowPolicy: Sendable, Hashable {
    /// Never lose a step: `send` waits until the writer has room.
    case blockProducer
    /// Drop the step and record a gap with the number of dropped steps.
    case dropAndRecordGap
  }

  /// Where the trace is written.
  public let path: String
  /// How it is written.
  public let configuration: Configuration

  private let session = Mutex<(any RecordingSessionControl)?>(nil)
  private let finished = Atomic<Bool>(false)

  /// A recorder that will write a new trace file at `path` (the file must not exist).
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

  /// Flushes every captured step, marks effects still running as unfinished, and closes the
  /// trace. Blocks until the file is complete; later actions are not recorded.
  public func finish() {
    guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let current = session.withLock { $0 }
    current?.finish()
  }

  /// The error that stopped the recording, if one did.
  public var error: RecorderError? {
    session.withLock { $0 }?.failure
  }

  /// The number of steps recorded so far (step 0 excluded), dropped ones included.
  public var stepCount: Int {
    session.withLock { $0 }?.capturedSteps ?? 0
  }

  /// Events captured and not yet taken by the writer (tests wait for it to reach 0).
  package var queuedEvents: Int {
    session.withLock { $0 }?.queuedEvents ?? 0
  }

  /// The session for a reducer of these types, created on first use.
  @usableFromInline
  func session<State: Encodable & Sendable, Action: Encodable & Sendable>(
    for base: some Reducer<State, Action>
  ) -> RecordingSession<State, Action>? {
    if finished.load(ordering: .acquiring) { return nil }
    return session.withLock { stored -> RecordingSession<State, Action>? in
      if let stored {
        return stored as? RecordingSession<State, Action>
      }
      let created = RecordingSession<State, Action>(
        path: path, configuration: configuration, tree: recorderTree(of: base))
      stored = created
      return created
    }
  }
}

import ComposableCore
import Foundation
import Synchronization
import TraceKit

/// One recording of one store: the instrument the store's core tells every fact (see
/// `StoreInstrument`), which captures them for its background writer.
///
/// The main actor only captures values (the action, the state after the step — a few retains
/// for copy-on-write values —, the effects and reads the core reports); a writer thread
/// encodes, diffs, hashes and writes them. The queue between them is bounded for every kind of
/// event: `blockProducer` makes the main actor wait for room; `dropAndRecordGap` drops a step
/// (and the effects it starts) and records the gap. The effect events of a recorded step
/// cannot be dropped without making the trace lie, so under that policy they wait, in order,
/// until there is room, and go before any later step; a step finding them still waiting is
/// dropped. They are at most the starts and endings of the recorded effects still running.
///
/// ```swift
/// let session = try RecordingSession<S, A>(path: path, configuration: .init(), tree: tree)
/// // The store's core calls storeStarted, stepBegan, stepEnded, effectStarted, …
/// session.finish()
/// await session.waitUntilFinished()
/// ```
final class RecordingSession<State: Encodable & Sendable, Action: Encodable & Sendable>:
  StoreInstrument, RecordingSessionControl
{
  nonisolated let path: String
  nonisolated let configuration: Recorder.Configuration
  nonisolated let queue: CaptureQueue<SessionEvent<State, Action>>
  /// Monotonic nanoseconds at the start of the trace.
  nonisolated let origin: UInt64
  private nonisolated let whenFull: CaptureQueue<SessionEvent<State, Action>>.WhenFull
  private nonisolated let done = FinishSignal()
  private nonisolated let stopped = Atomic<Bool>(false)
  private nonisolated let finishing = Atomic<Bool>(false)
  private nonisolated let failureStorage = Mutex<RecorderError?>(nil)
  private nonisolated let steps = Atomic<Int>(0)
  private nonisolated let lastQueuedStep = Atomic<Int>(0)
  private nonisolated let droppedSinceLastQueued = Atomic<Int>(0)
  /// Effect events of recorded steps that found the queue full (drop policy), in order: queued
  /// before anything else when there is room.
  private nonisolated let pendingEvents = Mutex<[SessionEvent<State, Action>]>([])
  private nonisolated let writer = Mutex<WriterThread?>(nil)

  // Main actor only.
  private var action: Action?
  private var actionOrigin = StepOrigin.user
  private var sender: UUID?
  private var stepStart: UInt64 = 0
  private var reads: [DependencyRead] = []
  /// The steps dropped so far, as ranges (drop policy).
  private var droppedSteps: [ClosedRange<Int>] = []
  /// Effects whose start is in the trace and whose end is not yet.
  private var recordedEffects: Set<EffectID> = []

  /// A session writing a new trace at `path`, its writer thread started.
  init(path: String, configuration: Recorder.Configuration, tree: RecorderTree) {
    self.path = path
    self.configuration = configuration
    queue = CaptureQueue(capacity: configuration.queueCapacity)
    whenFull = configuration.overflowPolicy == .blockProducer ? .block : .drop
    origin = MonotonicClock.nanoseconds()
    let writer = StepWriter<State, Action>(session: self, tree: tree)
    do {
      let thread = try WriterThread(name: "rewind-writer") { writer.run() }
      self.writer.withLock { $0 = thread }
    } catch {
      fail(
        RecorderError(
          path: path, step: nil,
          message: "the writer thread could not be started (error \(error.code))"))
    }
  }

  /// Whether facts are still captured (false after a write error or `finish()`).
  nonisolated var isRecording: Bool { !stopped.load(ordering: .relaxed) }

  nonisolated var failure: RecorderError? { failureStorage.withLock { $0 } }
  nonisolated var capturedSteps: Int { steps.load(ordering: .relaxed) }
  nonisolated var queuedEvents: Int { queue.count }
  nonisolated var queueHighWater: Int { queue.highWater }

  // MARK: Steps

  func storeStarted(state: borrowing State) {
    guard isRecording else { return }
    let wallTime = Date().timeIntervalSince1970
    queue.append(.start(state: copy state, wallTime: wallTime), whenFull: whenFull)
  }

  func stepBegan(_ step: Int, action: Action, origin: ActionOrigin) {
    guard isRecording else { return }
    self.action = action
    actionOrigin = Self.stepOrigin(origin)
    if case .effect(let id) = origin, recordedEffects.contains(id) {
      sender = id.uuid
    } else {
      sender = nil
    }
    stepStart = MonotonicClock.nanoseconds()
    reads.removeAll(keepingCapacity: true)
  }

  func dependencyRead(_ read: DependencyValueRead) {
    guard isRecording else { return }
    reads.append(Self.dependencyRead(read))
  }

  func stepEnded(_ step: Int, state: borrowing State, reducerNanos: UInt64) {
    guard isRecording, let action = action.take() else { return }
    steps.store(step, ordering: .relaxed)
    let isBehind = !queuePendingEvents()
    let captured = CapturedStep(
      step: step, monotonicNanos: stepStart &- origin, origin: actionOrigin, sender: sender,
      action: action, state: copy state, reducerNanos: reducerNanos, dependencies: reads)
    if !isBehind, queue.append(.step(captured), whenFull: whenFull) {
      lastQueuedStep.store(step, ordering: .relaxed)
      droppedSinceLastQueued.store(0, ordering: .relaxed)
    } else {
      droppedSinceLastQueued.add(1, ordering: .relaxed)
      if let last = droppedSteps.last, last.upperBound == step - 1 {
        droppedSteps[droppedSteps.count - 1] = last.lowerBound...step
      } else {
        droppedSteps.append(step...step)
      }
    }
  }

  // MARK: Effects

  func effectStarted(_ launch: EffectLaunch) {
    // The effects of a dropped step are not in the trace either.
    guard isRecording, !droppedSteps.contains(where: { $0.contains(launch.step) }) else {
      return
    }
    let effect = CapturedEffect(
      id: launch.id.uuid, startedByStep: launch.step, cancelIDs: launch.cancelIDs,
      location: launch.location, startNanos: MonotonicClock.nanoseconds() &- origin)
    recordedEffects.insert(launch.id)
    queueOrKeep(.effectStarted(effect))
  }

  func effectFinished(_ id: EffectID) {
    end(id, outcome: .finished)
  }

  func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?) {
    let outcome = EffectOutcome.cancelled(reason: Self.reason(cause), byStep: step)
    for id in ids { end(id, outcome: outcome) }
  }

  private func end(_ id: EffectID, outcome: EffectOutcome) {
    guard isRecording, recordedEffects.remove(id) != nil else { return }
    queueOrKeep(
      .effectEnded(id.uuid, nanos: MonotonicClock.nanoseconds() &- origin, outcome: outcome))
  }

  /// Queues an effect event, after those kept back; keeps it back when there is no room.
  private func queueOrKeep(_ event: SessionEvent<State, Action>) {
    if queuePendingEvents(), queue.append(event, whenFull: whenFull) { return }
    pendingEvents.withLock { $0.append(event) }
  }

  /// Queues the effect events kept back while the queue was full, as far as there is room;
  /// returns whether none is left.
  private func queuePendingEvents() -> Bool {
    pendingEvents.withLock { pending in
      while let first = pending.first {
        guard queue.append(first, whenFull: .drop) else { return false }
        pending.removeFirst()
      }
      return true
    }
  }

  // MARK: What the trace stores

  static func stepOrigin(_ origin: ActionOrigin) -> StepOrigin {
    switch origin {
    case .user: .user
    case .effect(let id): .effect(id.uuid)
    case .send(let step): .send(step: step)
    case .observer: .observer
    case .inspector: .inspector
    }
  }

  static func dependencyRead(_ read: DependencyValueRead) -> DependencyRead {
    switch read {
    case .uuid(let value):
      DependencyRead(key: "uuid", value: .string(value.uuidString))
    case .date(let value):
      DependencyRead(key: "date", value: .double(value.timeIntervalSinceReferenceDate))
    case .random(let value):
      DependencyRead(
        key: "random", value: value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value))
    case .clockNow(let offset):
      DependencyRead(
        key: "clock",
        value: .double(
          Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18))
    }
  }

  /// The `cancel_reason` a cause is stored as.
  static func reason(_ cause: EffectCancelCause) -> String {
    switch cause {
    case .cancel: "cancel"
    case .cancelInFlight: "cancelInFlight"
    case .teardown(let kind): kind.rawValue
    case .storeTeardown: "storeDeinit"
    case .storeTask: "storeTask"
    case .testSkip: "skippedInFlight"
    }
  }

  // MARK: Ending

  nonisolated func finish() {
    guard !finishing.exchange(true, ordering: .acquiringAndReleasing) else { return }
    stopped.store(true, ordering: .releasing)
    let endings = pendingEvents.withLock { pending in
      defer { pending.removeAll() }
      return pending
    }
    let dropped = droppedSinceLastQueued.load(ordering: .relaxed)
    let trailing =
      dropped > 0 ? (afterStep: lastQueuedStep.load(ordering: .relaxed), dropped: dropped) : nil
    let closing = SessionEvent<State, Action>.finish(
      trailingGap: trailing, endings: endings, done: done)
    if !queue.close(with: closing) || writer.withLock({ $0 == nil }) {
      done.signal()
    }
  }

  nonisolated func waitUntilFinished() async {
    await done.wait()
  }

  nonisolated func waitUntilFinishedBlocking() {
    done.waitBlocking()
  }

  nonisolated func joinWriter() {
    writer.withLock { $0 }?.join()
  }

  /// Called by the writer when a write failed: stops capturing and reports once.
  nonisolated func fail(_ error: RecorderError) {
    let first = failureStorage.withLock { stored -> Bool in
      guard stored == nil else { return false }
      stored = error
      return true
    }
    stopped.store(true, ordering: .releasing)
    if first { reportIssue(error.description) }
  }
}

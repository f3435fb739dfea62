import ComposableCore
import Foundation
import Locking
import Synchronization
import TraceKit

/// One recording of one store: the instrument the store's core tells every fact (see
/// `StoreInstrument`), which captures them for its background writer.
///
/// The main actor only captures values (the action, the state after the step — a few retains
/// for copy-on-write values —, the effects and reads the core reports), through a
/// `CaptureKit` specialized for the feature's types; a writer thread encodes, diffs, hashes
/// and writes them. The queue between them is bounded for every kind of
/// event: `blockProducer` makes the main actor wait for room; `dropAndRecordGap` drops a step
/// (and the effects it starts) and records the gap. The effect events of a recorded step
/// cannot be dropped without making the trace lie, so under that policy they wait, in order,
/// until there is room, and go before any later step; a step finding them still waiting is
/// dropped. They are at most the starts and endings of the recorded effects still running.
///
/// ```swift
/// let session = RecordingSession(path: path, configuration: .init(), tree: tree, kit: kit)
/// // The store's core calls storeStarted, stepBegan, stepEnded, effectStarted, …
/// session.finish()
/// await session.waitUntilFinished()
/// ```
final class RecordingSession<State: Encodable & Sendable, Action: Encodable & Sendable>:
  StoreInstrument, RecordingSessionControl
{
  /// The trace file (nil: the recording is kept in memory only, for live attach).
  nonisolated let path: String?
  nonisolated let configuration: Recorder.Configuration
  /// Live attach: the history in memory and its server (see `Recorder.Live`).
  nonisolated let live: LiveSession?
  private nonisolated let liveStore: LiveStoreBridge<State, Action>?
  nonisolated let queue: CaptureQueue<SessionEvent<State, Action>>
  /// The feature's specialized code: the capture (main actor) and the writer's batches.
  nonisolated let kit: CaptureKit<State, Action>
  /// Where an effect event's bytes begin in a slot (`kit.effectPayload`, kept here so that
  /// writing one reads no field of the generic kit).
  private nonisolated let effectPayload: Int
  /// Where a step's facts begin in its slot (`kit.factsOffset`), for the same reason.
  private nonisolated let factsOffset: Int
  /// Monotonic nanoseconds at the start of the trace.
  nonisolated let origin: UInt64
  /// The time the trace records, when it is not the system's monotonic clock's.
  nonisolated let clockNanos: (@Sendable () -> UInt64)?
  private nonisolated let whenFull: CaptureQueue<SessionEvent<State, Action>>.WhenFull
  /// Whether `whenFull` is `.block` (comparing the generic enum costs a metadata look-up).
  private nonisolated let blocksWhenFull: Bool
  /// The store's log of the dependency keys read, set before `storeStarted` (whose event the
  /// writer takes after it), read by the writer (`RecordingSession+DependencyKeys`).
  nonisolated(unsafe) var dependencyKeyLog: DependencyKeyLog?
  private nonisolated let done = FinishSignal()
  private nonisolated let stopped = Atomic<Bool>(false)
  private nonisolated let finishing = Atomic<Bool>(false)
  private nonisolated let failureStorage = Lock<RecorderError?>(nil)
  private nonisolated let steps = CapturedStepCount()
  private nonisolated let lastQueuedStep = Atomic<Int>(0)
  private nonisolated let droppedSinceLastQueued = Atomic<Int>(0)
  /// Effect events of recorded steps that found the queue full (drop policy), in order: queued
  /// before anything else when there is room.
  private nonisolated let pendingEvents = Lock<[EffectEvent]>([])
  private nonisolated let writer = Lock<WriterThread?>(nil)

  // Main actor only, and never across a call that could touch them again: the dynamic
  // exclusivity checks of a class's stored properties cost more than the rest of a step.
  /// How many effect events wait in `pendingEvents` (lets a step skip the lock).
  @exclusivity(unchecked) private var pendingCount = 0
  @exclusivity(unchecked) private var actionOrigin = StepOrigin.user
  @exclusivity(unchecked) private var sender: UUID?
  /// The step's time on the configured clock (on the monotonic clock, the core passes it).
  @exclusivity(unchecked) private var stepStart: UInt64 = 0
  /// The dependency values the step being reduced read, described by the writer.
  @exclusivity(unchecked) private var reads: [DependencyValueRead] = []
  /// The steps dropped so far, as ranges (drop policy).
  @exclusivity(unchecked) private var droppedSteps: [ClosedRange<Int>] = []
  /// Effects started by a dropped step (drop policy), whose start is not in the trace and
  /// whose end must not be either. Every other effect started while recording is in the
  /// trace: keeping that set instead cost two hashes of a UUID per effect.
  @exclusivity(unchecked) private var unrecordedEffects: Set<EffectID> = []
  /// The last step whose reducer returned: an effect starting or ending now does so after
  /// it (one cancelled while step n is reduced ends after step n - 1).
  @exclusivity(unchecked) private var lastEndedStep = 0
  /// On the monotonic clock, the latest reading of it the session took or was given (the
  /// core's as the last reducer returned, or the session's own since): the start of the
  /// effects that reducer returned, which the core launches right after it. Sharing it saves
  /// a clock read per effect and keeps the trace's times in the order things happened (an
  /// effect cancelled in flight as its successor launches ends at its successor's start).
  @exclusivity(unchecked) private var latestReading: UInt64 = 0

  /// A session writing a new trace at `path`, its writer thread started.
  init(
    path: String?, configuration: Recorder.Configuration, tree: RecorderTree,
    kit: CaptureKit<State, Action>
  ) {
    self.path = path
    self.configuration = configuration
    self.kit = kit
    effectPayload = kit.effectPayload
    factsOffset = kit.factsOffset
    if let live = configuration.live {
      let store = LiveStoreBridge<State, Action>(
        redacting: !configuration.redactedStatePaths.isEmpty)
      liveStore = store
      self.live = LiveSession(configuration: live, file: path, store: store)
    } else {
      liveStore = nil
      self.live = nil
    }
    queue = CaptureQueue(capacity: configuration.queueCapacity, layout: kit.layout)
    blocksWhenFull = configuration.overflowPolicy == .blockProducer
    whenFull = blocksWhenFull ? .block : .drop
    clockNanos = configuration.clock.map(Self.nanoseconds)
    origin = clockNanos?() ?? MonotonicClock.nanoseconds()
    live?.countSteps { [steps] in steps.last }
    let writer = StepWriter<State, Action>(session: self, tree: tree)
    do {
      let thread = try WriterThread(name: "rewind-writer") { writer.run() }
      self.writer.withLock { $0 = thread }
    } catch {
      fail(
        RecorderError(
          path: path ?? "memory", lastCommittedStep: nil,
          message: "the writer thread could not be started (error \(error.code))"))
    }
  }

  /// Whether facts are still captured (false after a write error or `finish()`).
  nonisolated var isRecording: Bool { !stopped.load(ordering: .relaxed) }

  nonisolated var failure: RecorderError? { failureStorage.withLock { $0 } }
  nonisolated var capturedSteps: Int { steps.last }
  nonisolated var queuedEvents: Int { queue.count }
  nonisolated var queueHighWater: Int { queue.highWater }

  // MARK: Steps

  func storeStarted(state: borrowing State) {
    guard isRecording else { return }
    let wallTime = Date().timeIntervalSince1970
    guard let slot = queue.reserveSlot(whenFull: whenFull) else { return }
    kit.start(slot, copy state, wallTime)
    queue.publish()
  }

  func stepBegan(_ step: Int, action: Action, origin: ActionOrigin) {
    guard isRecording else { return }
    actionOrigin = Self.stepOrigin(origin)
    if case .effect(let id) = origin {
      if unrecordedEffects.isEmpty {
        sender = id.uuid
      } else {
        noteSender(id)
      }
    } else {
      sender = nil
    }
    // On the monotonic clock the core's reading as the reducer starts is the step's time
    // (`stepEnded`): one clock read a step fewer.
    if clockNanos != nil { readStepStart() }
  }

  /// `stepBegan`'s sender when some effects are unrecorded (drop policy). A call of its own,
  /// as `readStepStart`: nothing of `stepBegan` is live across either call, so its common path
  /// saves no registers (about 12 instructions a step).
  @inline(never)
  private func noteSender(_ id: EffectID) {
    sender = unrecordedEffects.contains(id) ? nil : id.uuid
  }

  /// The step's time on the configured clock (see `stepBegan`).
  @inline(never)
  private func readStepStart() {
    if let clockNanos { stepStart = clockNanos() }
  }

  func dependencyRead(_ read: DependencyValueRead) {
    guard isRecording else { return }
    reads.append(read)
  }

  func stepEnded(
    _ step: Int, action: Action, state: UnsafePointer<State>, reducerStart: UInt64,
    reducerNanos: UInt64
  ) {
    lastEndedStep = step
    latestReading = reducerStart &+ reducerNanos
    guard isRecording else { return }
    steps.store(step)
    let isBehind = pendingCount > 0 && !queuePendingEvents()
    // The writer takes the reads: a fresh (empty, unallocated) list for the next step, rather
    // than emptying a buffer the writer still shares, which would copy it. Swapped and
    // consumed, not copied: most steps read nothing and hand over an empty list unretained.
    var dependencies: [DependencyValueRead] = []
    if !reads.isEmpty { swap(&dependencies, &reads) }
    guard !isBehind else {
      dropped(step)
      return
    }
    // The slot is reserved here, before the kit's call: reserved in the call, it made the
    // call hold the state across the reservation (a copy of it on the call's stack).
    guard let slot = queue.reserveSlot(whenFull: whenFull) else {
      dropped(step)
      return
    }
    // The facts are built where they go, in the slot (built first and handed to the kit, they
    // were stored on the stack and copied into the slot), and the kit copies the store's state
    // straight into the slot.
    (slot + factsOffset).initializeMemory(
      as: StepFacts.self,
      to: StepFacts(
        step: step, monotonicNanos: (clockNanos == nil ? reducerStart : stepStart) &- origin,
        origin: actionOrigin, sender: sender,
        reducerNanos: reducerNanos, dependencies: consume dependencies))
    kit.stepParts(slot, action, state)
    queue.publish()
    lastQueuedStep.store(step, ordering: .relaxed)
    droppedSinceLastQueued.store(0, ordering: .relaxed)
  }

  /// Accounts for a step that found no room (drop policy): it is part of a gap.
  private func dropped(_ step: Int) {
    droppedSinceLastQueued.add(1, ordering: .relaxed)
    if let last = droppedSteps.last, last.upperBound == step - 1 {
      droppedSteps[droppedSteps.count - 1] = last.lowerBound...step
    } else {
      droppedSteps.append(step...step)
    }
  }

  // MARK: An attached inspector

  func storeControlled(by control: any StoreControl<State, Action>) {
    liveStore?.attach(control)
  }

  /// A jump or a continue: a step without an action, recorded like any other (rare, so it is
  /// captured without the kit's specialized code).
  func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State) {
    guard isRecording else { return }
    steps.store(step)
    let stepOrigin: StepOrigin =
      switch kind {
      case .jump(let target): .jump(toStep: target)
      case .continueFrom(let base): .continued(fromStep: base)
      }
    let facts = StepFacts(
      step: step, monotonicNanos: MonotonicClock.nanoseconds() &- origin, origin: stepOrigin,
      sender: nil, reducerNanos: 0, dependencies: [])
    let isBehind = pendingCount > 0 && !queuePendingEvents()
    if !isBehind, let slot = queue.reserveSlot(whenFull: whenFull) {
      kit.inspectorStep(slot, facts, copy state)
      queue.publish()
      lastQueuedStep.store(step, ordering: .relaxed)
      droppedSinceLastQueued.store(0, ordering: .relaxed)
    } else {
      dropped(step)
    }
  }

  // MARK: Effects

  func effectStarted(_ launch: consuming EffectLaunch) {
    guard isRecording else { return }
    // The effects of a dropped step are not in the trace either.
    let step = launch.step
    if !droppedSteps.isEmpty, droppedSteps.contains(where: { $0.contains(step) }) {
      unrecordedEffects.insert(launch.id)
      return
    }
    let startNanos = startTime(of: launch) &- origin
    // The core's report moves into the event, built where it goes: nothing of it is copied or
    // retained again.
    switch effectEventPlace() {
    case .slot(let slot):
      CapturedEffect.initialize(
        slot, payload: effectPayload, launch: launch, startNanos: startNanos,
        startedAfterStep: lastEndedStep)
      queue.publish()
    case .keptBack:
      keep(
        .started(
          CapturedEffect(launch: launch, startNanos: startNanos, startedAfterStep: lastEndedStep)))
    case .nowhere:
      break
    }
  }

  func effectFinished(_ id: EffectID) {
    guard isRecording else { return }
    end(id, outcome: .finished, nanos: now() &- origin)
  }

  func effectCancelled(_ id: EffectID, cause: EffectCancelCause, step: Int?) {
    guard isRecording else { return }
    end(id, outcome: .cancelled(reason: cause.traceReason, byStep: step), nanos: now() &- origin)
  }

  func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?) {
    guard isRecording else { return }
    let outcome = EffectOutcome.cancelled(reason: cause.traceReason, byStep: step)
    // One cancellation ends them all at once: one clock read for all of them.
    let nanos = now() &- origin
    for id in ids { end(id, outcome: copy outcome, nanos: nanos) }
  }

  /// Queues an effect's end, its fields stored in its slot (`EffectEnding`). The outcome is
  /// consumed and the kept-back path is a call of its own: a cancellation copies its outcome
  /// once fewer (about 15 instructions).
  private func end(_ id: EffectID, outcome: consuming EffectOutcome, nanos: UInt64) {
    if !unrecordedEffects.isEmpty, unrecordedEffects.remove(id) != nil { return }
    switch effectEventPlace() {
    case .slot(let slot):
      EffectEnding.initialize(
        slot, payload: effectPayload, id: id.uuid, nanos: nanos, outcome: outcome,
        afterStep: lastEndedStep)
      queue.publish()
    case .keptBack:
      keepEnd(id, outcome: outcome, nanos: nanos)
    case .nowhere:
      break
    }
  }

  /// Keeps an effect's end back (drop policy, queue full): rare, and kept out of `end`'s path.
  @inline(never)
  private func keepEnd(_ id: EffectID, outcome: consuming EffectOutcome, nanos: UInt64) {
    keep(.ended(id.uuid, nanos: nanos, outcome: outcome, afterStep: lastEndedStep))
  }

  /// Where an effect event goes now: after those kept back, into a reserved slot (the caller
  /// writes it there and publishes it) when there is room; kept back when there is none.
  ///
  /// The caller builds the event in the slot it is given: an event built first and then handed
  /// over was moved twice (145 bytes each time) on its way into the slot.
  @inline(__always)
  private func effectEventPlace() -> EffectEventPlace {
    // Only the main actor appends, so room seen now is still there (a closed queue refuses
    // the event, and `finish()` took what was kept back already).
    guard pendingCount == 0 || queuePendingEvents(), blocksWhenFull || queue.hasRoom else {
      return .keptBack
    }
    guard let slot = queue.reserveSlot(whenFull: whenFull) else { return .nowhere }
    return .slot(slot)
  }

  /// Keeps an effect event back until the queue has room (drop policy).
  private func keep(_ event: consuming EffectEvent) {
    let kept = event
    pendingEvents.withLock { $0.append(kept) }
    pendingCount += 1
  }

  /// Queues the effect events kept back while the queue was full, as far as there is room;
  /// returns whether none is left.
  private func queuePendingEvents() -> Bool {
    let (queued, left) = pendingEvents.withLock { pending -> (Int, Int) in
      var queued = 0
      while queued < pending.count, let slot = queue.reserveSlot(whenFull: .drop) {
        EffectEvent.initialize(slot, payload: effectPayload, to: pending[queued])
        queue.publish()
        queued += 1
      }
      pending.removeFirst(queued)
      return (queued, pending.count)
    }
    _ = queued
    pendingCount = left
    return left == 0
  }

  // MARK: Time

  /// Nanoseconds on the clock the trace records.
  private func now() -> UInt64 {
    if let clockNanos { return clockNanos() }
    latestReading = MonotonicClock.nanoseconds()
    return latestReading
  }

  /// When `launch` started: an effect the last reducer returned (the core launches those
  /// before anything else happens on the main actor, and only they have no parent) started
  /// at the latest reading; one a concatenation's task started later reads the clock.
  private func startTime(of launch: EffectLaunch) -> UInt64 {
    guard clockNanos == nil, launch.parent == nil, launch.step == lastEndedStep else {
      return now()
    }
    return latestReading
  }

  /// A clock's time as nanoseconds since a fixed instant of it (the moment this is called).
  private static func nanoseconds(_ clock: any Clock<Duration>) -> @Sendable () -> UInt64 {
    func reading<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> UInt64 {
      let start = clock.now
      return {
        let (seconds, attoseconds) = start.duration(to: clock.now).components
        // A clock that went back (it cannot) or beyond 584 years reads as its nearest end.
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
      }
    }
    return reading(clock)
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

  /// The recording ended or stopped: live watchers are told, the socket goes.
  nonisolated func liveEnded(_ reason: String) {
    live?.finish(reason)
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
      trailingGap: trailing, effects: endings, done: done)
    if !queue.close(with: closing) || writer.withLock({ $0 == nil }) {
      liveEnded("finished")
      done.signal()
    }
  }

  /// Waits until the writer closed the trace, then joins its thread: a recording that
  /// finished leaves no writer thread behind, however long the store and the Recorder live.
  nonisolated func waitUntilFinished() async {
    await done.wait()
    joinWriterThread()
  }

  nonisolated func waitUntilFinishedBlocking() {
    done.waitBlocking()
    joinWriterThread()
  }

  nonisolated func joinWriter() {
    joinWriterThread()
    live?.join()
  }

  /// Joins the writer's thread, which ends right after it signals `done` (its trace stage,
  /// `rewind-writer-2`, was joined before that). Not the live server's thread: it serves its
  /// watchers what was recorded before it ends, which a waiter for the trace must not wait for;
  /// `joinWriter` (the Recorder's `deinit`) joins it.
  private nonisolated func joinWriterThread() {
    writer.withLock { $0 }?.join()
  }

  nonisolated var isWriterJoined: Bool {
    writer.withLock { $0 }?.isJoined ?? true
  }

  /// Called by the writer when a write failed: stops capturing and reports once.
  nonisolated func fail(_ error: RecorderError) {
    let first = failureStorage.withLock { stored -> Bool in
      guard stored == nil else { return false }
      stored = error
      return true
    }
    stopped.store(true, ordering: .releasing)
    if first {
      liveEnded("failed: \(error.message)")
      reportIssue(error.description)
    }
  }
}

import ComposableCore
import Foundation
import Synchronization
import TraceKit

/// One recording of one store: the main-actor capture side and its background writer.
///
/// Everything except `failure`, the queue and the effect endings is touched only on the main
/// actor (the store calls its reducer there), which is why the class is `@unchecked Sendable`.
///
/// ```swift
/// let session = RecordingSession<S, A>(path: path, configuration: .init(), tree: tree)
/// // The RecordingReducer calls beginStep / finishStep / instrument around each action.
/// ```
@usableFromInline
final class RecordingSession<State: Encodable & Sendable, Action: Encodable & Sendable>:
  RecordingSessionControl, @unchecked Sendable
{
  let path: String
  let configuration: Recorder.Configuration
  @usableFromInline let queue: CaptureQueue<SessionEvent<State, Action>>
  @usableFromInline let dependencies = DependencyCapture()
  @usableFromInline let stopped = Atomic<Bool>(false)
  private let failureStorage = Mutex<RecorderError?>(nil)
  @usableFromInline let steps = Atomic<Int>(0)
  @usableFromInline let whenFull: CaptureQueue<SessionEvent<State, Action>>.WhenFull
  /// Monotonic nanoseconds at the start of the trace.
  @usableFromInline let origin: UInt64

  // Main actor only.
  /// What every step reads and writes, behind a pointer: a class's stored `var`s pay a
  /// dynamic exclusivity check on each access, which showed up per send.
  @usableFromInline let hot: UnsafeMutablePointer<HotState>
  @usableFromInline var syncSends: [EffectBox] = []
  @usableFromInline var syncSendsHead = 0
  private var boxesByCancelID: [EffectCancelID: [EffectBox]] = [:]
  /// Effects a `.cancel` or `cancelInFlight` part will cancel when the store launches it:
  /// taken when the part is walked, so effects registered after it in the same effect (which
  /// the store starts after the cancellation) are not counted as cancelled.
  private var pendingCancels: [EffectCancelID: [EffectBox]] = [:]
  private var liveBoxes: [EffectBox] = []
  private var liveBoxesCompactAt = 256

  init(path: String, configuration: Recorder.Configuration, tree: RecorderTree) {
    self.path = path
    self.configuration = configuration
    queue = CaptureQueue(capacity: configuration.queueCapacity)
    whenFull = configuration.overflowPolicy == .blockProducer ? .block : .drop
    origin = MonotonicClock.nanoseconds()
    hot = UnsafeMutablePointer.allocate(capacity: 1)
    hot.initialize(to: HotState())
    let writer = StepWriter<State, Action>(session: self, tree: tree)
    let thread = Thread { writer.run() }
    thread.name = "rewind-writer"
    thread.start()
  }

  deinit {
    hot.deinitialize(count: 1)
    hot.deallocate()
  }

  /// Whether steps are still captured (false after a write error or `finish()`).
  @inlinable
  var isRecording: Bool { !stopped.load(ordering: .relaxed) }

  var failure: RecorderError? { failureStorage.withLock { $0 } }
  var capturedSteps: Int { steps.load(ordering: .relaxed) }
  var queuedEvents: Int { queue.count }

  // MARK: Steps (main actor)

  /// Where the action about to be reduced came from; queues step 0 on the first call.
  @inlinable
  func beginStep(stateBefore: State) -> (origin: StepOrigin, sender: EffectBox?, sync: Bool) {
    if !hot.pointee.started {
      hot.pointee.started = true
      let wallTime = Date().timeIntervalSince1970
      queue.append(.start(state: stateBefore, wallTime: wallTime), whenFull: .exceed)
    }
    if let sender = hot.pointee.sendingEffect {
      hot.pointee.sendingEffect = nil
      return (.effect(sender.id), sender, false)
    }
    if hot.pointee.pendingSyncSends > 0 {
      return nextSyncSend()
    }
    return (.user, nil, false)
  }

  @usableFromInline
  func nextSyncSend() -> (origin: StepOrigin, sender: EffectBox?, sync: Bool) {
    let sender = syncSends[syncSendsHead]
    syncSendsHead += 1
    hot.pointee.pendingSyncSends -= 1
    if syncSendsHead == syncSends.count {
      syncSends.removeAll(keepingCapacity: true)
      syncSendsHead = 0
    }
    return (.effect(sender.id), sender, true)
  }

  /// Queues the step; returns its number.
  @inlinable
  func finishStep(
    action: Action, state: State, origin: StepOrigin, sender: EffectBox?, syncSend: Bool,
    start: UInt64, end: UInt64, dependencies reads: [DependencyRead]
  ) -> Int {
    hot.pointee.step += 1
    let step = hot.pointee.step
    steps.store(step, ordering: .relaxed)
    let captured = CapturedStep(
      step: step, monotonicNanos: start &- self.origin, origin: origin, action: action,
      state: state, reducerNanos: end &- start, dependencies: reads)
    if queue.append(.step(captured), whenFull: whenFull) {
      hot.pointee.lastQueuedStep = step
      hot.pointee.droppedSinceLastQueued = 0
      if let sender {
        queue.append(.effectSent(sender.id, step: step), whenFull: .exceed)
      }
    } else {
      hot.pointee.droppedSinceLastQueued += 1
    }
    if let sender, syncSend, sender.claimEnd() {
      queue.append(
        .effectEnded(sender.id, nanos: end &- self.origin, outcome: .finished, tentative: false),
        whenFull: .exceed)
    }
    return step
  }

  // MARK: Effects (main actor, except the endings)

  /// The effect with every part registered and every `.run` observed.
  @usableFromInline
  func instrument(_ effect: Effect<Action>, step: Int) -> Effect<Action> {
    if case .none = effect.node { return effect }
    return instrument(effect, step: step, ids: [], launchesNow: true)
  }

  private func instrument(
    _ effect: Effect<Action>, step: Int, ids: [EffectCancelID], launchesNow: Bool
  ) -> Effect<Action> {
    switch effect.node {
    case .none:
      return effect
    case .cancel(let id, _):
      if launchesNow { takeForCancellation(id) }
      return effect
    case .send(let action):
      guard launchesNow else {
        // After an asynchronous part of a concatenation, the concatenation's task sends it
        // once the parts before it finished: it is an effect part of its own, sent through
        // an observed `.run` so that the step it becomes names it as the origin.
        let run = Effect<Action>.Run(priority: nil, location: nil) { send in
          await send(action)
        }
        return instrument(
          Effect(node: .run(run)), step: step, ids: ids, launchesNow: false)
      }
      let box = register(step: step, ids: ids, location: nil)
      syncSends.append(box)
      hot.pointee.pendingSyncSends += 1
      return effect
    case .run(var run):
      let box = register(step: step, ids: ids, location: run.location)
      let operation = run.operation
      run.operation = { [self] send in
        let observed = Send<Action> { action in
          self.hot.pointee.sendingEffect = box
          send(action)
          self.hot.pointee.sendingEffect = nil
        }
        await operation(observed)
        self.effectReturned(box, cancelled: Task.isCancelled)
      }
      return Effect(node: .run(run))
    case .merge(let children):
      return Effect(
        node: .merge(
          children.map { instrument($0, step: step, ids: ids, launchesNow: launchesNow) }))
    case .concatenate(let children):
      var now = launchesNow
      var parts: [Effect<Action>] = []
      parts.reserveCapacity(children.count)
      for child in children {
        // The store starts the leading synchronous parts at once, the rest in a task.
        if !child.isSynchronous { now = false }
        parts.append(instrument(child, step: step, ids: ids, launchesNow: now))
      }
      return Effect(node: .concatenate(parts))
    case .cancellable(let id, let cancelInFlight, let child):
      if cancelInFlight && launchesNow { takeForCancellation(id) }
      let inner = instrument(child, step: step, ids: ids + [id], launchesNow: launchesNow)
      return Effect(node: .cancellable(id: id, cancelInFlight: cancelInFlight, inner))
    }
  }

  private func takeForCancellation(_ id: EffectCancelID) {
    if let boxes = boxesByCancelID.removeValue(forKey: id) {
      pendingCancels[id, default: []] += boxes
    } else if pendingCancels[id] == nil {
      pendingCancels[id] = []
    }
  }

  private func register(step: Int, ids: [EffectCancelID], location: SourceLocation?)
    -> EffectBox
  {
    let box = EffectBox(id: EffectID.next().uuid, cancelIDs: ids)
    for id in ids { boxesByCancelID[id, default: []].append(box) }
    liveBoxes.append(box)
    if liveBoxes.count >= liveBoxesCompactAt { compactBoxes() }
    let record = CapturedEffect(
      id: box.id, startedByStep: step, cancelIDs: ids, location: location,
      startNanos: MonotonicClock.nanoseconds() &- origin)
    queue.append(.effectStarted(record), whenFull: .exceed)
    return box
  }

  private func compactBoxes() {
    liveBoxes.removeAll { $0.isEnded }
    for (id, boxes) in boxesByCancelID {
      let live = boxes.filter { !$0.isEnded }
      boxesByCancelID[id] = live.isEmpty ? nil : live
    }
    liveBoxesCompactAt = max(256, liveBoxes.count * 2)
  }

  /// The operation of an observed `.run` returned (any thread).
  ///
  /// A cancelled operation often returns before the store tells the main actor why it
  /// cancelled it (the store cancels the task first), so its ending is tentative.
  private func effectReturned(_ box: EffectBox, cancelled: Bool) {
    guard isRecording else { return }
    let nanos = MonotonicClock.nanoseconds() &- origin
    if cancelled {
      guard !box.isEnded else { return }
      queue.append(
        .effectEnded(
          box.id, nanos: nanos, outcome: .cancelled(reason: "taskCancelled", byStep: nil),
          tentative: true),
        whenFull: .exceed)
    } else if box.claimEnd() {
      queue.append(
        .effectEnded(box.id, nanos: nanos, outcome: .finished, tentative: false),
        whenFull: .exceed)
    }
  }

  /// The store cancelled effects (main actor).
  func effectsCancelled(_ cancellation: EffectCancellation) {
    guard isRecording, hot.pointee.started else { return }
    let reason: String
    var byStep: Int? = hot.pointee.step
    var everything = false
    switch cancellation.reason {
    case .cancelEffect: reason = "cancel"
    case .cancelInFlight: reason = "cancelInFlight"
    case .teardown(let kind): reason = kind.rawValue
    case .storeDeinit:
      reason = "storeDeinit"
      byStep = nil
      everything = true
    case .skippedInFlight:
      reason = "skippedInFlight"
      byStep = nil
      everything = true
    case .storeTaskCancel:
      // The ids name every effect of the task's group and possibly others under the same
      // ids; the operations see `Task.isCancelled` and end themselves as "taskCancelled".
      return
    }
    let boxes: [EffectBox]
    if everything {
      boxes = liveBoxes
    } else {
      boxes = cancellation.ids.flatMap { id in
        pendingCancels.removeValue(forKey: id) ?? boxesByCancelID.removeValue(forKey: id) ?? []
      }
    }
    let now = MonotonicClock.nanoseconds() &- origin
    for box in boxes where box.claimEnd() {
      queue.append(
        .effectEnded(
          box.id, nanos: now, outcome: .cancelled(reason: reason, byStep: byStep),
          tentative: false),
        whenFull: .exceed)
    }
  }

  // MARK: Ending

  func finish() {
    let dropped = hot.pointee.droppedSinceLastQueued
    let trailing = dropped > 0 ? (afterStep: hot.pointee.lastQueuedStep, dropped: dropped) : nil
    let done = FinishSignal()
    guard isRecording else { return }
    let event = SessionEvent<State, Action>.finish(trailingGap: trailing, done: done)
    if queue.append(event, whenFull: .exceed, urgent: true) {
      done.wait()
    }
    stopped.store(true, ordering: .releasing)
  }

  /// Called by the writer when a write failed: stops capturing and reports once.
  func fail(_ error: RecorderError) {
    let first = failureStorage.withLock { stored -> Bool in
      guard stored == nil else { return false }
      stored = error
      return true
    }
    stopped.store(true, ordering: .releasing)
    if first { reportIssue(error.description) }
  }
}

/// The parts of recording specialized for the recorded feature's types: the main actor's
/// capture, and the writer's reading of what was captured.
///
/// A store tells its recording session every fact through an existential, so the session's own
/// code runs unspecialized, and each generic type it touched cost a metadata lookup per step
/// (~600 ns a send). These closures are made where `recording(to:)` is written, in the module
/// that knows `State` and `Action`, and capture nothing: they are specialized code the session
/// calls.
///
/// ```swift
/// let kit = CaptureKit<App.State, App.Action>()   // in recording(to:), inlined in the app
/// kit.step(queue, facts, action, state, .block)   // in the session: one indirect call
/// kit.write(writer, events)                          // in the writer's thread, per batch
/// ```
@usableFromInline
struct CaptureKit<State: Encodable & Sendable, Action: Encodable & Sendable>: Sendable {
  @usableFromInline typealias Queue = CaptureQueue<SessionEvent<State, Action>>

  /// Queues step 0.
  @usableFromInline let start: @Sendable (Queue, State, Double, Queue.WhenFull) -> Bool
  /// Queues a step.
  @usableFromInline let step:
    @Sendable (Queue, consuming StepFacts, Action, consuming State, Queue.WhenFull) -> Bool
  /// Queues an effect's start or end.
  @usableFromInline let effect: @Sendable (Queue, consuming EffectEvent, Queue.WhenFull) -> Bool
  /// Hands each event of a batch to the writer; true once it wrote `.finish` (the batch's
  /// last event). Specialized: the writer's own code is not, and taking a generic event apart
  /// there cost three metadata look-ups and value-witness copies a step.
  @usableFromInline let write: @Sendable (StepWriter<State, Action>, [SessionEvent<State, Action>])
    -> Bool

  @inlinable
  init() {
    start = { queue, state, wallTime, policy in
      queue.append(.start(state: state, wallTime: wallTime), whenFull: policy)
    }
    // `consume`: without it the closure copied the state (a retain per reference it holds)
    // and destroyed the caller's copy, instead of moving it into the slot.
    step = { queue, facts, action, state, policy in
      // Built in its slot: one copy of the event's bytes fewer.
      guard let slot = queue.reserve(whenFull: policy) else { return false }
      slot.initialize(
        to: .step(CapturedStep(facts: consume facts, action: action, state: consume state)))
      queue.publish()
      return true
    }
    effect = { queue, event, policy in
      guard let slot = queue.reserve(whenFull: policy) else { return false }
      slot.initialize(to: .effect(consume event))
      queue.publish()
      return true
    }
    write = { writer, events in
      for event in events {
        switch event {
        case .start(let state, let wallTime):
          writer.writeStart(state: state, wallTime: wallTime)
        case .step(let step):
          writer.writeStep(step.facts, action: step.action, state: step.state)
        case .inspectorStep(let facts, let state):
          writer.writeInspectorStep(facts, state: state)
        case .effect(let event):
          writer.writeEffect(event)
        case .finish(let gap, let effects, let done):
          writer.writeFinish(trailingGap: gap, effects: effects, done: done)
          return true
        }
      }
      return false
    }
  }
}

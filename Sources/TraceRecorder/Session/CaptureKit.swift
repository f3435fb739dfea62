import Foundation

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
/// let queue = CaptureQueue(capacity: 4096, layout: kit.layout)
/// if let slot = queue.reserveSlot(whenFull: .block) {   // in the session
///   (slot + kit.factsOffset).initializeMemory(as: StepFacts.self, to: facts)
///   kit.stepParts(slot, action, state)                   // one indirect call: the store's
///   queue.publish()                                      // state copied into the slot
/// }
/// kit.write(writer, &events)                         // in the writer's thread, per batch
/// ```
///
/// The session reserves and publishes the slot itself: a closure that reserved it first held
/// the state across that call and copied it to its stack on entry (192 bytes for the
/// composed app) before writing it into the slot. The state is copied from where the store keeps
/// it into the slot by the closure: taken as a value, it was copied to the core's stack, moved
/// to the session's and moved again into the slot; now the core copies nothing and the session
/// moves nothing. Effect events are
/// not generic: the session writes them itself (`EffectEvent.initialize(_:payload:to:)`).
@usableFromInline
struct CaptureKit<State: Encodable & Sendable, Action: Encodable & Sendable>: Sendable {
  @usableFromInline typealias Slot = SessionSlot<State, Action>

  /// How the session's queue keeps each event (`SessionSlot`), specialized.
  @usableFromInline let layout: CaptureSlotLayout<SessionEvent<State, Action>>
  /// Writes step 0 into a reserved slot.
  @usableFromInline let start: @Sendable (UnsafeMutableRawPointer, consuming State, Double) -> Void
  /// Writes a step's kind, action and state into a reserved slot, copying the store's state
  /// there; the caller stores the step's facts at `factsOffset` (see `step`).
  @usableFromInline let stepParts:
    @Sendable (UnsafeMutableRawPointer, Action, UnsafePointer<State>) -> Void
  /// Where a step's facts begin in its slot (`SessionSlot.facts`).
  @usableFromInline let factsOffset: Int
  /// Writes a step of an attached inspector (a jump, a continue) into a reserved slot.
  @usableFromInline let inspectorStep:
    @Sendable (UnsafeMutableRawPointer, consuming StepFacts, consuming State) -> Void
  /// Where an effect event's bytes begin in its slot (`SessionSlot.payload`).
  @usableFromInline let effectPayload: Int
  /// Hands each event of a batch to the writer, moved out of the batch; true once it wrote
  /// `.finish` (the batch's last event). Specialized: the writer's own code is not, and taking
  /// a generic event apart there cost three metadata look-ups and value-witness copies a step.
  @usableFromInline let write:
    @Sendable (StepWriter<State, Action>, inout [SessionEvent<State, Action>]) -> Bool

  @inlinable
  init() {
    layout = Slot.layout
    start = { slot, state, wallTime in
      Slot.initializeStart(slot, state: state, wallTime: wallTime)
    }
    // The state is copied from the store's into the slot.
    stepParts = { slot, action, state in
      Slot.initializeStepParts(slot, action: action, state: state)
    }
    factsOffset = Slot.facts
    inspectorStep = { slot, facts, state in
      Slot.initializeInspectorStep(slot, facts: consume facts, state: consume state)
    }
    effectPayload = Slot.payload
    write = { writer, events in
      // Each event is moved out of the batch and a trivial one left in its place, which the
      // batch's emptying destroys for nothing: a `for … in` copied every event (a retain of
      // each of its parts) and the emptying destroyed it a second time.
      let taken = SessionEvent<State, Action>.effect(.taken)
      for index in events.indices {
        var event = taken
        swap(&event, &events[index])
        switch consume event {
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

  /// Writes a step into a reserved slot: its facts, then its kind, action and state
  /// (`stepParts`), the store's state copied there.
  @inlinable
  func step(
    _ slot: UnsafeMutableRawPointer, _ facts: consuming StepFacts, _ action: Action,
    _ state: UnsafePointer<State>
  ) {
    (slot + factsOffset).initializeMemory(as: StepFacts.self, to: facts)
    stepParts(slot, action, state)
  }
}

extension EffectEvent {
  /// What `CaptureKit.write` leaves in a batch in place of an event it took out: a value with
  /// nothing to release.
  @usableFromInline static let taken = EffectEvent.ended(
    UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), nanos: 0, outcome: .finished,
    afterStep: 0)
}

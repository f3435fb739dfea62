import ComposableCore
import Foundation
import TraceKit

/// How a recording's event lies in a slot of its session's queue: a kind byte, then only the
/// event's own parts, each at a fixed offset, written in place by the main actor and put back
/// together into a `SessionEvent` by the writer (`take`).
///
/// A slot that was a `SessionEvent` (an enum) was written whole from a temporary Swift built
/// the event in: the step's state copied into it and then with it into the slot, and an
/// effect's event (145 bytes) written as a whole 305-byte enum. Here a step's state is moved
/// into its slot once, and an effect event writes its own bytes.
///
/// ```
/// | kind | state | action | facts |      .step (.inspectorStep: the action's bytes unused)
/// | kind | state | wallTime |             .start
/// | kind | EffectEvent |                   .effect (an event kept back, then queued)
/// | kind | CapturedEffect |                .effectStarted
/// | kind | EffectEnding |                  .effectEnded
/// ```
///
/// An effect's event is not generic: the session writes it itself (`CapturedEffect.initialize`,
/// `EffectEnding.initialize`, `EffectEvent.initialize`, at the `payload` offset it keeps),
/// without a call through the kit. A start and an end are written as structs, field by field
/// into the slot: an `EffectEvent` (an enum) was built on the stack and copied in whole.
///
/// ```swift
/// let slot = queue.reserveSlot(whenFull: .block)!
/// (slot + SessionSlot<S, A>.facts).initializeMemory(as: StepFacts.self, to: facts)
/// SessionSlot<S, A>.initializeStepParts(slot, action: action, state: state)
/// queue.publish()   // the writer's `take` gets .step(CapturedStep(facts:action:state:))
/// ```
@usableFromInline
enum SessionSlot<State: Sendable, Action: Sendable> {
  @usableFromInline typealias Kind = SessionSlotKind

  /// The queue's layout of these slots.
  @inlinable
  static var layout: CaptureSlotLayout<SessionEvent<State, Action>> {
    CaptureSlotLayout(
      stride: stride, alignment: alignment,
      take: { slot, batch in take(slot, into: &batch) },
      destroy: { slot in destroy(slot) })
  }

  // MARK: Offsets

  /// The largest alignment of a slot's parts (a power of two).
  @inlinable
  static var alignment: Int {
    max(
      MemoryLayout<State>.alignment, MemoryLayout<Action>.alignment,
      MemoryLayout<StepFacts>.alignment, MemoryLayout<EffectEvent>.alignment,
      MemoryLayout<CapturedEffect>.alignment, MemoryLayout<EffectEnding>.alignment,
      MemoryLayout<Double>.alignment)
  }

  @inlinable
  static func aligned(_ offset: Int, to alignment: Int) -> Int {
    (offset + alignment - 1) & ~(alignment - 1)
  }

  /// Where the parts begin (after the kind byte): a step's or the start's state, an effect's
  /// event.
  @inlinable
  static var payload: Int { aligned(1, to: alignment) }

  @inlinable
  static var state: Int { payload }

  @inlinable
  static var action: Int {
    aligned(state + MemoryLayout<State>.size, to: MemoryLayout<Action>.alignment)
  }

  @inlinable
  static var facts: Int {
    aligned(action + MemoryLayout<Action>.size, to: MemoryLayout<StepFacts>.alignment)
  }

  @inlinable
  static var wallTime: Int {
    aligned(state + MemoryLayout<State>.size, to: MemoryLayout<Double>.alignment)
  }

  @inlinable
  static var stride: Int {
    aligned(
      max(
        facts + MemoryLayout<StepFacts>.size, wallTime + MemoryLayout<Double>.size,
        payload + MemoryLayout<EffectEvent>.size, payload + MemoryLayout<CapturedEffect>.size,
        payload + MemoryLayout<EffectEnding>.size),
      to: alignment)
  }

  // MARK: Writing (the main actor)

  @inlinable
  static func initializeStart(
    _ slot: UnsafeMutableRawPointer, state: consuming State, wallTime: Double
  ) {
    slot.storeBytes(of: Kind.start.rawValue, as: UInt8.self)
    (slot + Self.state).initializeMemory(as: State.self, to: state)
    (slot + Self.wallTime).initializeMemory(as: Double.self, to: wallTime)
  }

  /// Copies the store's `state` into the slot (the only copy the capture makes). A small state
  /// is copied by the specialized code, which for a large one copies the bytes to a temporary
  /// and to the slot, then copies the temporary once more to a scratch buffer while retaining
  /// its fields (about 266 instructions for the composed app's 192 bytes). From
  /// `witnessCopyMinimum` bytes the state goes through `swift_arrayInitWithCopy` to its value
  /// witness, which copies it field by field from the store's memory to the slot's: 31
  /// instructions a step fewer for the composed app; on the counter's 41 bytes that call cost
  /// 73 more than the specialized copy.
  ///
  /// A step's facts are not written here: the caller stores them at `facts` itself (the
  /// session builds them there: passed in, they were built on the session's stack and copied
  /// again into the slot).
  @inlinable
  static func initializeStepParts(
    _ slot: UnsafeMutableRawPointer, action: Action, state: UnsafePointer<State>
  ) {
    slot.storeBytes(of: Kind.step.rawValue, as: UInt8.self)
    if MemoryLayout<State>.size >= witnessCopyMinimum {
      (slot + Self.state).bindMemory(to: State.self, capacity: 1).initialize(from: state, count: 1)
    } else {
      (slot + Self.state).initializeMemory(as: State.self, to: state.pointee)
    }
    (slot + Self.action).initializeMemory(as: Action.self, to: action)
  }

  /// The size in bytes from which a step's state is copied by its value witness (see
  /// `initializeStepParts`): above the counter's 41, below the composed app's 192.
  @inlinable
  static var witnessCopyMinimum: Int { 96 }

  @inlinable
  static func initializeInspectorStep(
    _ slot: UnsafeMutableRawPointer, facts: consuming StepFacts, state: consuming State
  ) {
    slot.storeBytes(of: Kind.inspectorStep.rawValue, as: UInt8.self)
    (slot + Self.state).initializeMemory(as: State.self, to: state)
    (slot + Self.facts).initializeMemory(as: StepFacts.self, to: facts)
  }

  // MARK: Reading (the writer)

  @inlinable
  static func kind(_ slot: UnsafeMutableRawPointer) -> Kind {
    // Only the `initialize…` functions (and those of `EffectEvent`, `CapturedEffect` and
    // `EffectEnding`) write a slot's kind.
    Kind(rawValue: slot.load(as: UInt8.self)).unsafelyUnwrapped
  }

  @inlinable
  static func move<T>(_ type: T.Type, at offset: Int, of slot: UnsafeMutableRawPointer) -> T {
    (slot + offset).assumingMemoryBound(to: T.self).move()
  }

  /// Moves the slot's event out, whole, to the end of `batch`.
  @inlinable
  static func take(_ slot: UnsafeMutableRawPointer, into batch: inout [SessionEvent<State, Action>])
  {
    switch kind(slot) {
    case .start:
      let state = move(State.self, at: Self.state, of: slot)
      batch.append(.start(state: state, wallTime: move(Double.self, at: wallTime, of: slot)))
    case .step:
      let state = move(State.self, at: Self.state, of: slot)
      let action = move(Action.self, at: Self.action, of: slot)
      let facts = move(StepFacts.self, at: Self.facts, of: slot)
      batch.append(.step(CapturedStep(facts: facts, action: action, state: state)))
    case .inspectorStep:
      let state = move(State.self, at: Self.state, of: slot)
      batch.append(.inspectorStep(move(StepFacts.self, at: facts, of: slot), state: state))
    case .effect:
      batch.append(.effect(move(EffectEvent.self, at: payload, of: slot)))
    case .effectStarted:
      batch.append(.effect(.started(move(CapturedEffect.self, at: payload, of: slot))))
    case .effectEnded:
      batch.append(.effect(move(EffectEnding.self, at: payload, of: slot).event()))
    }
  }

  /// Destroys the slot's event (one the writer never took).
  @inlinable
  static func destroy(_ slot: UnsafeMutableRawPointer) {
    switch kind(slot) {
    case .start:
      (slot + state).assumingMemoryBound(to: State.self).deinitialize(count: 1)
    case .step:
      (slot + state).assumingMemoryBound(to: State.self).deinitialize(count: 1)
      (slot + action).assumingMemoryBound(to: Action.self).deinitialize(count: 1)
      (slot + facts).assumingMemoryBound(to: StepFacts.self).deinitialize(count: 1)
    case .inspectorStep:
      (slot + state).assumingMemoryBound(to: State.self).deinitialize(count: 1)
      (slot + facts).assumingMemoryBound(to: StepFacts.self).deinitialize(count: 1)
    case .effect:
      (slot + payload).assumingMemoryBound(to: EffectEvent.self).deinitialize(count: 1)
    case .effectStarted:
      (slot + payload).assumingMemoryBound(to: CapturedEffect.self).deinitialize(count: 1)
    case .effectEnded:
      (slot + payload).assumingMemoryBound(to: EffectEnding.self).deinitialize(count: 1)
    }
  }
}

/// The first byte of a `SessionSlot`: which event it holds. Not generic, so that the session
/// writes an effect's slot without touching its feature's types.
@usableFromInline
enum SessionSlotKind: UInt8 {
  case start
  case step
  case inspectorStep
  case effect
  case effectStarted
  case effectEnded
}

extension EffectEvent {
  /// Writes the event into a reserved slot of a session's queue whose parts begin at `payload`
  /// (`SessionSlot.payload`): the kind byte, then the event.
  @inlinable
  static func initialize(
    _ slot: UnsafeMutableRawPointer, payload: Int, to event: consuming EffectEvent
  ) {
    slot.storeBytes(of: SessionSlotKind.effect.rawValue, as: UInt8.self)
    (slot + payload).initializeMemory(as: EffectEvent.self, to: event)
  }
}

extension CapturedEffect {
  /// Writes an effect's start into a reserved slot of a session's queue whose parts begin at
  /// `payload` (`SessionSlot.payload`): the kind byte, then the core's report and the times,
  /// each stored in place.
  static func initialize(
    _ slot: UnsafeMutableRawPointer, payload: Int, launch: consuming EffectLaunch,
    startNanos: UInt64, startedAfterStep: Int
  ) {
    slot.storeBytes(of: SessionSlotKind.effectStarted.rawValue, as: UInt8.self)
    (slot + payload).initializeMemory(
      as: CapturedEffect.self,
      to: CapturedEffect(
        launch: launch, startNanos: startNanos, startedAfterStep: startedAfterStep))
  }
}

extension EffectEnding {
  /// Writes an effect's end into a reserved slot of a session's queue whose parts begin at
  /// `payload` (`SessionSlot.payload`): the kind byte, then the fields, each stored in place.
  static func initialize(
    _ slot: UnsafeMutableRawPointer, payload: Int, id: UUID, nanos: UInt64,
    outcome: consuming EffectOutcome, afterStep: Int
  ) {
    slot.storeBytes(of: SessionSlotKind.effectEnded.rawValue, as: UInt8.self)
    (slot + payload).initializeMemory(
      as: EffectEnding.self,
      to: EffectEnding(id: id, nanos: nanos, outcome: outcome, afterStep: afterStep))
  }
}

import ComposableCore
import Foundation
import TraceKit

/// The part of a chaos replay that knows the feature's types: it runs a unit's action through
/// the reducer and then the synchronous `.send`s the reducer returns, breadth-first, as the
/// store would, and encodes the state. `@inlinable` for the reason `ReplayEngine` is.
///
/// ```swift
/// let engine = try ChaosEngine(reducer: Search(), initialState: nil, trace: trace)
/// engine.reset()
/// let steps = try engine.runBatch(unit.head, describing: false)
/// ```
@usableFromInline
final class ChaosEngine<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  @usableFromInline let reducer: Base
  @usableFromInline let initial: Base.State
  @exclusivity(unchecked) @usableFromInline var state: Base.State
  @usableFromInline let path: String
  @usableFromInline let redaction: Redaction
  @usableFromInline let encoder = TraceValueEncoder()
  @usableFromInline let decoder = TraceValueDecoder()
  @exclusivity(unchecked) @usableFromInline var decodedActions: [Int: Base.Action] = [:]

  @inlinable
  init(reducer: Base, initialState: Base.State?, trace: ReplayTrace) throws(ReplayError) {
    self.reducer = reducer
    self.path = trace.path
    self.redaction = trace.redaction
    let start = try ReplayEngine<Base>.startingState(
      initialState, recorded: trace.initialState, path: trace.path)
    self.initial = start
    self.state = start
  }

  /// The closures the chaos driver calls, specialized for the feature's types.
  @inlinable
  var steps: ChaosSteps {
    ChaosSteps(
      reset: { [self] in state = initial },
      runBatch: { [self] head, describing throws(ReplayError) in
        try runBatch(head, describing: describing)
      },
      stateHash: { [self] step throws(ReplayError) in try encodedState(step: step).stableHash },
      encodedState: { [self] step throws(ReplayError) in try encodedState(step: step) })
  }

  /// Reduces `head`'s recorded action, then the `.send`s the reducer returns, breadth-first;
  /// returns each reduced step, with its action encoded when `describing`.
  @inlinable
  func runBatch(_ head: RecordedStep, describing: Bool) throws(ReplayError) -> [ChaosStep] {
    var queue = [try decode(head)]
    var reduced: [ChaosStep] = []
    var index = 0
    while index < queue.count {
      let action = queue[index]
      let effect = reducer.reduce(into: &state, action: action)
      var step = ChaosStep()
      if describing {
        step.action = index == 0 ? head.action : try encode(action, step: head.step)
      }
      if case .none = effect.node {
        reduced.append(step)
        index += 1
        continue
      }
      let plan = EffectPlan(effect)
      queue += plan.sends
      step.cancellations = plan.cancellations
      for event in plan.events {
        if let shape = try shapeEvent(event, step: head.step) { step.events.append(shape) }
      }
      reduced.append(step)
      index += 1
    }
    return reduced
  }

  @inlinable
  func shapeEvent(_ event: EffectPlan<Base.Action>.Event, step: Int)
    throws(ReplayError) -> EffectShape.Event?
  {
    switch event {
    case .cancelInFlight(let id):
      return .cancelInFlight(id)
    case .start(let planned):
      var events: [EffectShape.Event] = []
      for part in planned.parts {
        if let event = try shapeEvent(part, step: step) { events.append(event) }
      }
      return .start(
        EffectShape(
          kind: planned.kind, cancelIDs: planned.cancelIDs, location: planned.location,
          events: events, sends: []))
    case .send:
      return nil
    }
  }

  @inlinable
  func decode(_ step: RecordedStep) throws(ReplayError) -> Base.Action {
    if let action = decodedActions[step.actionID] { return action }
    do {
      let action = try decoder.decode(Base.Action.self, from: step.action)
      if decodedActions.count >= RecordedActions.capacity {
        decodedActions.removeAll(keepingCapacity: true)
      }
      decodedActions[step.actionID] = action
      return action
    } catch {
      throw ReplayError(
        .actionShape(
          step: step.step, actionPath: step.actionPath,
          type: qualifiedTypeName(Base.Action.self),
          detail: ShapeDescription.decodingFailure(error, recorded: step.action)),
        path: path)
    }
  }

  @inlinable
  func encode(_ action: Base.Action, step: Int) throws(ReplayError) -> TraceValue {
    do {
      return try encoder.encode(action)
    } catch {
      throw ReplayError(.encoding(step: step, detail: "an action it sent: \(error)"), path: path)
    }
  }

  /// The state as the recorder encodes it, redacted as the trace is.
  @inlinable
  func encodedState(step: Int) throws(ReplayError) -> TraceValue {
    var encoded: TraceValue
    do {
      encoded = try encoder.encode(state)
    } catch {
      throw ReplayError(.encoding(step: step, detail: "\(error)"), path: path)
    }
    redaction.apply(to: &encoded)
    return encoded
  }
}

/// One step a chaos schedule reduced: what its effect asks of the store and, when a report
/// is being made, its action.
@usableFromInline
struct ChaosStep {
  @usableFromInline var cancellations: [(id: EffectCancelID, reason: EffectCancelReason)] = []
  @usableFromInline var events: [EffectShape.Event] = []
  @usableFromInline var action: TraceValue?

  @inlinable
  init() {}
}

/// The chaos engine's closures, made by code specialized for the feature's types.
@usableFromInline
struct ChaosSteps {
  /// Puts the state back to the initial one.
  @usableFromInline let reset: () -> Void
  /// Runs a unit's action and the `.send`s it brings (see `ChaosEngine.runBatch`).
  @usableFromInline let runBatch: (RecordedStep, Bool) throws(ReplayError) -> [ChaosStep]
  /// The hash of the state as the recorder would encode it (the step names errors).
  @usableFromInline let stateHash: (Int) throws(ReplayError) -> UInt64
  @usableFromInline let encodedState: (Int) throws(ReplayError) -> TraceValue

  @inlinable
  init(
    reset: @escaping () -> Void,
    runBatch: @escaping (RecordedStep, Bool) throws(ReplayError) -> [ChaosStep],
    stateHash: @escaping (Int) throws(ReplayError) -> UInt64,
    encodedState: @escaping (Int) throws(ReplayError) -> TraceValue
  ) {
    self.reset = reset
    self.runBatch = runBatch
    self.stateHash = stateHash
    self.encodedState = encodedState
  }
}

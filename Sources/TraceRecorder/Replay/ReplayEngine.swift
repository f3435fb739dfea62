import ComposableCore
import Foundation
import TraceKit

/// The part of a replay that knows the feature's types: it decodes each recorded action,
/// runs the reducer, reads the structure of the effect it returned (`EffectPlan`) and checks
/// the hash of the state after it. Everything else (the reads, the effects' bookkeeping, the
/// report) is `StepCheck`'s, which knows no Swift type of the feature.
///
/// Its methods are `@inlinable`, and `Replay.run()` builds it and hands the driver closures
/// into it: so this code is specialized in the module that knows the feature. Unspecialized,
/// each generic operation (a dictionary of actions, an effect's nodes) looked its metadata up
/// at run time, a quarter of a step's time.
///
/// ```swift
/// let engine = try ReplayEngine(reducer: Todos(), initialState: nil, trace: trace)
/// let reduced = try engine.reduce(step)  // what the step's effect asks of the store
/// ```
@usableFromInline
final class ReplayEngine<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  @usableFromInline let reducer: Base
  /// The state the replay starts from (a chaos schedule starts each run from it).
  @usableFromInline let initial: Base.State
  // One thread only, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) @usableFromInline var state: Base.State
  @usableFromInline let path: String
  @usableFromInline let trace: ReplayTrace
  @usableFromInline let redaction: Redaction
  @usableFromInline let encoder = TraceValueEncoder()
  @usableFromInline let decoder = TraceValueDecoder()
  /// Hashes the state without building its tree, reusing its coding levels step after step;
  /// its memo compares a place's value by the bytes that hold it (not a struct's padding).
  @usableFromInline let stateHasher = StableHashEncoder(
    replacingClassInstances: true, valueBytes: significantBytes(of:))
  /// Each distinct recorded action decoded once, at `actionID % RecordedActions.capacity`
  /// with its id (`RecordedStep.actionID`): ids are handed out in order and a slot keeps the
  /// latest, so a slot holding another id is a miss. Asked at every step, where a dictionary's
  /// hashing of the id cost more than the rest of the look-up.
  @exclusivity(unchecked) @usableFromInline var decodedActions: [(id: Int, action: Base.Action)?] =
    []
  /// The states that matched their recorded hash so far: the replay thread's, which learns
  /// of them a run late, and the checking stage's own.
  @usableFromInline let matchedStates = StateHashes<Base.State>()
  @usableFromInline let checkedStates = StateHashes<Base.State>()
  /// The replay thread's states not yet handed to the checking stage, in order.
  @exclusivity(unchecked) @usableFromInline var pendingStates = PendingStates<Base.State>(
    capacity: ReplayEngine.stateRun)
  /// States the checking stage found matching again, for `matchedStates`: guarded by the
  /// stage's lock.
  @exclusivity(unchecked) @usableFromInline
  var confirmedStates: [(hash: UInt64, state: Base.State)] = []
  /// The first state the checking stage found failing: written by its thread, read by the
  /// replay thread once the stage settled.
  @exclusivity(unchecked) @usableFromInline var failedState: (PendingState, ReplayError?)?
  /// `==` when the state is `Equatable`.
  @usableFromInline let stateEquality: ((Base.State, Base.State) -> Bool)?

  /// An engine starting from `initialState`, or from the trace's step 0 decoded; either way
  /// checked against the shape of the recorded step 0.
  @inlinable
  init(reducer: Base, initialState: Base.State?, trace: ReplayTrace) throws(ReplayError) {
    self.reducer = reducer
    self.path = trace.path
    self.trace = trace
    self.redaction = trace.redaction
    let start = try Self.startingState(initialState, recorded: trace.initialState, path: path)
    self.initial = start
    self.state = start
    self.stateEquality = equality(of: Base.State.self)
  }

  /// The closures the driver calls, specialized for the feature's types; states are checked
  /// on `stage`.
  @inlinable
  func steps(checkingOn stage: StateCheckStage) -> ReplaySteps {
    ReplaySteps(
      reduce: { [self] step throws(ReplayError) in try reduce(step) },
      jump: { [self] step throws(ReplayError) in try jump(step) },
      checkState: { [self] step, order in checkState(after: step, order: order, on: stage) },
      settle: { [self] in settle(stage) },
      shapeDifference: { recorded in
        ShapeDescription.roundTripDifference(Base.State.self, recorded: recorded)
      })
  }

  /// Runs the reducer on the step's action; returns what its effect asks of the store.
  @inlinable
  func reduce(_ step: RecordedStep) throws(ReplayError) -> ReducedStep {
    let action = try decode(step)
    let effect = reducer.reduce(into: &state, action: action)
    if case .none = effect.node { return ReducedStep() }
    let plan = try effectPlan(of: effect, step: step.step)
    var sends: [TraceValue] = []
    for action in plan.sends { sends.append(try encode(action, step: step.step)) }
    return ReducedStep(cancellations: plan.cancellations, events: plan.events, sends: sends)
  }

  /// The plan of the effect the reducer returned at recorded step `index`, the actions its
  /// tasks send encoded as the walk meets them (an error names that step).
  @inlinable
  func effectPlan(of effect: Effect<Base.Action>, step index: Int) throws(ReplayError)
    -> EffectPlan<Base.Action>
  {
    // The closure captures the step's index alone: capturing a `RecordedStep` copies it
    // whole at every call of the plan's walk.
    try EffectPlan(effect) { action throws(ReplayError) in try encode(action, step: index) }
  }

  /// An inspector's jump: the state recorded at the step, decoded with the feature's type.
  @inlinable
  func jump(_ step: RecordedStep) throws(ReplayError) {
    let recorded = try trace.state(at: step.step)
    do {
      state = try decoder.decode(Base.State.self, from: recorded)
    } catch {
      throw ReplayError(
        .stateShape(
          type: qualifiedTypeName(Base.State.self),
          detail: ShapeDescription.decodingFailure(error, recorded: recorded)),
        path: path)
    }
  }

  @inlinable
  func decode(_ step: RecordedStep) throws(ReplayError) -> Base.Action {
    let slot = step.actionID % RecordedActions.capacity
    if slot < decodedActions.count, let decoded = decodedActions[slot], decoded.id == step.actionID
    {
      return decoded.action
    }
    do {
      let action = try decoder.decode(Base.Action.self, from: step.action)
      while decodedActions.count <= slot { decodedActions.append(nil) }
      decodedActions[slot] = (step.actionID, action)
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

  /// The state as the recorder encodes it (class instances as placeholders), redacted as the
  /// trace is.
  @inlinable
  func encode(step: Int) throws(ReplayError) -> TraceValue {
    try encode(state, step: step)
  }

  /// `state` as `encode(step:)` encodes the current one.
  @inlinable
  func encode(_ state: Base.State, step: Int) throws(ReplayError) -> TraceValue {
    var encoded: TraceValue
    do {
      encoded = try encoder.encodeReplacingClassInstances(state).value
    } catch {
      throw ReplayError(.encoding(step: step, detail: "\(error)"), path: path)
    }
    redaction.apply(to: &encoded)
    return encoded
  }

  /// The stable hash of `encode(step:)`: without its tree when nothing is redacted (a
  /// redaction rewrites the tree before it is hashed).
  @inlinable
  func stateHash(step: Int) throws(ReplayError) -> UInt64 {
    try stateHash(of: state, step: step)
  }

  /// `state`'s hash as `stateHash(step:)` hashes the current one. One thread at a time: it
  /// reuses `stateHasher`'s levels and memo.
  @inlinable
  func stateHash(of state: Base.State, step: Int) throws(ReplayError) -> UInt64 {
    guard redaction.isEmpty else { return try encode(state, step: step).stableHash }
    do {
      return try stateHasher.stableHash(of: state)
    } catch {
      throw ReplayError(.encoding(step: step, detail: "\(error)"), path: path)
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

  /// The given initial state, or step 0 decoded; either way checked against the trace's shape.
  @inlinable
  static func startingState(_ initialState: Base.State?, recorded: TraceValue, path: String)
    throws(ReplayError) -> Base.State
  {
    let typeName = qualifiedTypeName(Base.State.self)
    let state: Base.State
    if let initialState {
      state = initialState
    } else {
      do {
        state = try TraceValueDecoder().decode(Base.State.self, from: recorded)
      } catch {
        throw ReplayError(
          .stateShape(
            type: typeName, detail: ShapeDescription.decodingFailure(error, recorded: recorded)),
          path: path)
      }
    }
    let encoded: TraceValue
    do {
      encoded = try TraceValueEncoder().encodeReplacingClassInstances(state).value
    } catch {
      throw ReplayError(.encoding(step: 0, detail: "\(error)"), path: path)
    }
    // A given state differs in its values, not in its shape; a decoded one must round-trip.
    if let difference = ShapeDescription.difference(
      recorded: recorded, current: encoded, valuesMatter: initialState == nil)
    {
      throw ReplayError(.stateShape(type: typeName, detail: difference), path: path)
    }
    return state
  }
}

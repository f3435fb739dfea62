import ComposableCore
import Foundation
import TraceKit

/// Re-runs recorded steps through a reducer and checks everything the trace recorded of each:
/// the dependency values it read, its direct use of system randomness, the effects it started
/// and cancelled, the synchronous `.send`s it returned, and the hash of the state after it.
///
/// It runs on the thread `SystemRandomWatch` watches, inside the reducing context that tells
/// its `DependencyCheck` every read, with the served dependencies in force.
///
/// ```swift
/// var engine = ReplayEngine(reducer: Todos(), state: initial, …)
/// let findings = try engine.replay(batch[0], batch: batch[...])  // [] when it matches
/// ```
struct ReplayEngine<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  let reducer: Base
  var state: Base.State
  var ledger: EffectLedger
  let served: ServedDependencies
  let check: DependencyCheck
  let watch: SystemRandomWatch
  let redaction: Redaction
  let path: String
  private let encoder = TraceValueEncoder()
  private let decoder = TraceValueDecoder()
  /// Each distinct recorded action decoded once (by `RecordedStep.actionID`).
  private var decodedActions: [Int: Base.Action] = [:]
  /// The states that matched their recorded hash so far.
  private var matchedStates = StateHashes<Base.State>()

  init(
    reducer: Base, state: Base.State, effects: RecordedEffects, served: ServedDependencies,
    check: DependencyCheck, watch: SystemRandomWatch, redaction: Redaction, path: String
  ) {
    self.reducer = reducer
    self.state = state
    self.ledger = EffectLedger(effects)
    self.served = served
    self.check = check
    self.watch = watch
    self.redaction = redaction
    self.path = path
  }

  /// The state after the last replayed step, encoded as the recorder encodes it.
  var encodedState: TraceValue {
    get throws(ReplayError) { try encode(step: nil) }
  }

  /// Replays the step at `index` of `batch`; returns how it differs from the trace.
  mutating func replay(_ index: Int, of batch: [RecordedStep])
    throws(ReplayError) -> [ReplayFinding]
  {
    let step = batch[index]
    var findings: [ReplayFinding] = []
    if case .effect(let sender) = step.origin,
      let finding = ledger.checkSender(sender, action: step.action, at: step.step)
    {
      findings.append(finding)
    }
    let action = try decode(step)
    let (effect, reads, randomness) = reduce(action, reads: step.dependencies)
    findings += reads
    if !randomness.isEmpty {
      findings.append(
        .systemRandomness(getrandom: randomness.getrandom, deviceOpens: randomness.deviceOpens))
    }
    let plan = EffectPlan(effect)
    findings += try checkEffects(plan, step: step.step)
    findings += try checkSends(plan.sends, step: step.step, in: batch, after: index)
    return findings
  }

  /// Whether the state after the step hashes as recorded; the encoded state when it does not.
  mutating func stateMismatch(_ step: RecordedStep) throws(ReplayError) -> TraceValue? {
    if matchedStates.contains(state, hash: step.stateHash) { return nil }
    let encoded = try encode(step: step.step)
    guard encoded.stableHash == step.stateHash else { return encoded }
    matchedStates.insert(state, hash: step.stateHash)
    return nil
  }

  /// Runs the reducer with the step's recorded reads served and checked, counting its direct
  /// use of system randomness.
  private mutating func reduce(_ action: Base.Action, reads: [DependencyRead])
    -> (Effect<Base.Action>, [ReplayFinding], SystemRandomWatch.Use)
  {
    served.load(reads)
    check.begin(reads)
    let before = watch.use
    watch.counting = true
    let effect = reducer.reduce(into: &state, action: action)
    watch.counting = false
    let randomness = watch.use - before
    return (effect, check.end(), randomness)
  }

  private mutating func checkEffects(_ plan: EffectPlan<Base.Action>, step: Int)
    throws(ReplayError) -> [ReplayFinding]
  {
    for (id, reason) in plan.cancellations {
      let cause: EffectCancelCause
      switch reason {
      case .cancelEffect: cause = .cancel(id)
      case .teardown(let kind): cause = .teardown(kind)
      }
      ledger.cancel(id, cause: cause, at: step)
    }
    var shapes: [EffectLedger.Shape.Event] = []
    for event in plan.events {
      if let shape = try shapeEvent(event, step: step) { shapes.append(shape) }
    }
    var findings = ledger.launch(shapes, at: step)
    findings += ledger.cancellationFindings(at: step)
    return findings
  }

  private func shapeEvent(_ event: EffectPlan<Base.Action>.Event, step: Int)
    throws(ReplayError) -> EffectLedger.Shape.Event?
  {
    switch event {
    case .cancelInFlight(let id):
      return .cancelInFlight(id)
    case .start(let planned):
      return .start(try shape(planned, step: step))
    case .send:
      return nil
    }
  }

  private func shape(_ planned: PlannedEffect<Base.Action>, step: Int)
    throws(ReplayError) -> EffectLedger.Shape
  {
    var events: [EffectLedger.Shape.Event] = []
    var sends: [TraceValue] = []
    for part in planned.parts {
      if case .send(let action) = part {
        sends.append(try encode(action, step: step))
      } else if let event = try shapeEvent(part, step: step) {
        events.append(event)
      }
    }
    return EffectLedger.Shape(
      kind: planned.kind, cancelIDs: planned.cancelIDs, location: planned.location,
      events: events, sends: sends)
  }

  /// The step's `.send`s against the steps of its batch that the trace says it sent.
  private func checkSends(
    _ sends: [Base.Action], step: Int, in batch: [RecordedStep], after index: Int
  ) throws(ReplayError) -> [ReplayFinding] {
    var recorded: [TraceValue] = []
    for later in batch[(index + 1)...] where later.origin == .send(step: step) {
      recorded.append(later.action)
    }
    if sends.isEmpty && recorded.isEmpty { return [] }
    var replayed: [TraceValue] = []
    for action in sends { replayed.append(try encode(action, step: step)) }
    return replayed == recorded ? [] : [.sends(recorded: recorded, replayed: replayed)]
  }

  private mutating func decode(_ step: RecordedStep) throws(ReplayError) -> Base.Action {
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

  /// The state as the recorder encodes it, redacted as the trace is.
  private func encode(step: Int?) throws(ReplayError) -> TraceValue {
    var encoded: TraceValue
    do {
      encoded = try encoder.encode(state)
    } catch {
      throw ReplayError(.encoding(step: step ?? 0, detail: "\(error)"), path: path)
    }
    redaction.apply(to: &encoded)
    return encoded
  }

  private func encode(_ action: Base.Action, step: Int) throws(ReplayError) -> TraceValue {
    do {
      return try encoder.encode(action)
    } catch {
      throw ReplayError(.encoding(step: step, detail: "an action it sent: \(error)"), path: path)
    }
  }
}

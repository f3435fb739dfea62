import ComposableCore
import Foundation
import TraceKit

/// Re-executes a recorded trace on the real reducer and checks, at every step, everything
/// the trace recorded: the hash of the state after it, the effects it started (how many,
/// which kind, under which cancellation ids), the effects it cancelled (`.cancel(id:)`,
/// `cancelInFlight`, child teardowns), the synchronous `.send`s it returned, and the
/// dependency values it read. It stops at the first step that differs and says every way it
/// differs there.
///
/// Effects are not run: the actions they sent are in the trace, at the places where the store
/// reduced them, and each recorded effect runs (for the checks) as long as the trace says it
/// did, unless the reducer cancels it. The values the reducer reads from `uuid`, `date`,
/// `withRandomNumberGenerator` and `continuousClock` are served back from the trace; a reducer
/// that reads more of them than the step recorded ends the replay there (it never loops on
/// invented values). On Linux the reducer runs on a thread whose calls for system randomness
/// are counted (see `SystemRandomWatch`), so `Int.random(in:)` or `UUID()` used directly is
/// reported at its step every time. The steps an attached inspector made are replayed as
/// they happened: a jump takes the state recorded at it (decoded), a continue keeps the state
/// and cancels the effects of the future it leaves; actions the inspector sent are reduced
/// like any other. States are checked on a second thread, so the reducer may run up to 512
/// steps past the first that differs; the runtime issues it reports there are dropped, and
/// those of the steps before are passed on in order, as a replay checking each step first.
///
/// ```swift
/// let result = try Replay(trace: "bug.rewind", reducer: AppFeature()).run()
/// print(result)
/// // Replayed 42 steps: every state, effect and dependency read matches the trace.
/// // — or —
/// // Step 20 (detail.dismiss) diverged from the trace (19 steps matched before it):
/// //   the trace recorded cancelling `detailFetch` (run, step 12) with .cancel(id:); the
/// //   reducer did not
/// ```
public struct Replay<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  /// The trace file.
  public let path: String
  /// The reducer to check against the trace.
  public let reducer: Base
  /// The state to start from; nil decodes step 0 of the trace.
  public let initialState: Base.State?

  public init(trace path: String, reducer: Base, initialState: Base.State? = nil) {
    self.path = path
    self.reducer = reducer
    self.initialState = initialState
  }

  /// Replays every step, stopping at the first that differs from the trace.
  ///
  /// - Throws: `ReplayError` when the trace cannot be read, has a gap, or the state or
  ///   action types no longer fit what was recorded.
  @inlinable
  public func run() throws(ReplayError) -> ReplayResult {
    let (reducer, initialState) = (self.reducer, self.initialState)
    return try ReplayDriver.run(path: path) { trace, stage throws(ReplayError) in
      try ReplayEngine(reducer: reducer, initialState: initialState, trace: trace)
        .steps(checkingOn: stage)
    }
  }
}

/// Runs a replay: opens the trace, starts the reading thread, the state-checking stage, the
/// watched thread and the replay context, and walks the steps in batches through the closures
/// that `makeSteps` (specialized for the feature) returns, stopping at the first step that
/// differs.
///
/// The states are checked on the stage's thread, a few runs of steps behind the reducer; the
/// outcome is the one of checking each step in full before the next: the first step that
/// differs in any way is reported, with every way it differs, and an error (reading the trace,
/// decoding an action) wins only when every step before it matched.
@usableFromInline
enum ReplayDriver {
  @usableFromInline
  static func run(
    path: String,
    makeSteps: (ReplayTrace, StateCheckStage) throws(ReplayError) -> ReplaySteps
  ) throws(ReplayError) -> ReplayResult {
    let trace = try ReplayTrace(path: path)
    let dependencies = DependencyValues.current
    // The reducer's issues are passed on to the collector in force here, or the reporters.
    let outer = IssueReporters.currentCollector
    // Both started here, before the replay thread exists: the reading thread and the stage
    // must not inherit the filter that watches the replay thread's system randomness.
    let ahead = try BatchReadAhead(path: path)
    defer { ahead.finish() }
    let stage = StateCheckStage()
    defer { stage.finish() }
    let (outcome, status) = SystemRandomWatch.run { watch in
      Result { () throws(ReplayError) in
        try ReplayTrace.withReplayContext(dependencies) { served, reads throws(ReplayError) in
          var issues = HeldIssues(passingTo: outer)
          return try IssueReporters.collecting(into: issues.collector) {
            () throws(ReplayError) in
            let steps = try makeSteps(trace, stage)
            let check = StepCheck(
              effects: trace.effects, served: served, reads: reads, watch: watch)
            return try replay(
              trace, ahead: ahead, steps: steps, check: check, stage: stage, issues: &issues)
          }
        }
      }
    }
    let result = try outcome.get()
    if case .matched(let steps, _) = result, case .unwatched(let reason) = status {
      return .matched(steps: steps, unwatched: reason)
    }
    return result
  }

  /// The replay loop. The runtime issues the reducer reports at the `order`th step are held
  /// until every state before it matched, and dropped when the serial replay would have
  /// stopped before it.
  private static func replay(
    _ trace: ReplayTrace, ahead: BatchReadAhead, steps: ReplaySteps, check: StepCheck,
    stage: StateCheckStage, issues: inout HeldIssues
  ) throws(ReplayError) -> ReplayResult {
    // Steps replayed and found matching so far but for the states still being checked.
    var order = 0
    // The step whose effects, sends or reads differ (its state was handed over too).
    var differing: (step: RecordedStep, findings: [ReplayFinding])?
    var thrown: ReplayError?
    do {
      try ahead.forEach { batch throws(ReplayError) in
        for index in batch.indices {
          // Moved out of the block while it is checked, and back in after: a copy retained
          // its action, path and reads and released them again, about 280 instructions a
          // step. The steps after it, which `check` reads for its sends, stay in place.
          let place = batch.baseAddress! + index
          let step = place.move()
          defer { place.initialize(to: step) }
          let findings = try check.replay(
            step, at: index, of: UnsafeBufferPointer(batch), steps: steps)
          issues.mark(order)
          if !issues.isEmpty { issues.release(through: stage.checkedThrough + 1) }
          guard steps.checkState(step, order) else { return false }
          guard findings.isEmpty else {
            differing = (step, findings)
            return false
          }
          order += 1
        }
        return true
      }
    } catch {
      thrown = error
    }
    // The issues of the step that threw, reported before it did.
    issues.mark(order)
    let failure = steps.settle()
    // The serial replay stops at the failing state, else at the step where this one stopped.
    issues.release(through: failure?.order ?? order)
    // Every step before a failing state matched in full, so it comes first, whatever the
    // replay thread met after it; at the differing step itself it joins its findings.
    if let failure {
      var findings: [ReplayFinding] = []
      if let differing, failure.order == order { findings = differing.findings }
      return .diverged(
        try divergence(
          at: failure.step, matched: failure.order, findings: findings,
          replayed: try failure.replayed.get(), trace: trace, steps: steps))
    }
    if let thrown { throw thrown }
    if let differing {
      return .diverged(
        try divergence(
          at: differing.step, matched: order, findings: differing.findings, replayed: nil,
          trace: trace, steps: steps))
    }
    return .matched(steps: order)
  }

  /// The report of a step that differs: `findings`, and the state's difference when
  /// `replayed` (the replayed state, which did not hash as recorded) is given.
  private static func divergence(
    at step: RecordedStep, matched: Int, findings: [ReplayFinding], replayed: TraceValue?,
    trace: ReplayTrace, steps: ReplaySteps
  ) throws(ReplayError) -> ReplayDivergence {
    var findings = findings
    var states: (recorded: TraceValue, replayed: TraceValue)?
    if let replayed {
      let recorded = try trace.state(at: step.step)
      if let shape = steps.shapeDifference(recorded) {
        findings.append(.stateShape(shape))
      } else {
        states = (recorded, replayed)
      }
    }
    let changes = states.map { TraceDiff.changes(from: $0.recorded, to: $0.replayed) } ?? []
    if states != nil { findings.append(.state(changes: changes.count)) }
    return ReplayDivergence(
      step: step.step, actionPath: step.actionPath, action: step.action,
      matchedSteps: matched, findings: findings, recorded: states?.recorded,
      replayed: states?.replayed, changes: changes)
  }
}

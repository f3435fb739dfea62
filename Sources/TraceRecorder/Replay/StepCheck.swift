import ComposableCore
import TraceKit

/// Checks each replayed step against what the trace recorded of it, knowing no Swift type of
/// the feature: the effect that sent it, the dependency values the reducer read (served from
/// the trace), its direct use of system randomness, the effects it started and cancelled
/// (`EffectLedger`) and its synchronous `.send`s. The reducer runs in `ReplaySteps.reduce`.
///
/// ```swift
/// let check = StepCheck(effects: trace.effects, served: served, reads: reads, watch: watch)
/// let first = batch.startIndex
/// let findings = try check.replay(batch[first], at: first, of: batch, steps: steps)
/// // [] if it matches
/// ```
final class StepCheck {
  // One thread only, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var ledger: EffectLedger
  private let served: ServedDependencies
  private let reads: DependencyCheck
  private let watch: SystemRandomWatch
  /// Where the inspector's jumps in the trace left the store. Unchecked as `ledger` is: a
  /// read access to it was checked at every step, inspector step or not.
  @exclusivity(unchecked) private var jumps = JumpHistory()

  init(
    effects: RecordedEffects, served: ServedDependencies, reads: DependencyCheck,
    watch: SystemRandomWatch
  ) {
    ledger = EffectLedger(effects)
    self.served = served
    self.reads = reads
    self.watch = watch
  }

  /// Replays `step`, the one at `index` of `batch` (handed in by the caller, which holds it
  /// already: a copy of a step retains its action, path and reads); returns how it differs
  /// from the trace.
  func replay(
    _ step: RecordedStep, at index: Int, of batch: UnsafeBufferPointer<RecordedStep>,
    steps: ReplaySteps
  )
    throws(ReplayError) -> [ReplayFinding]
  {
    if step.origin.isInspectorStep { return try inspectorStep(step, steps: steps) }
    var findings: [ReplayFinding] = []
    if case .effect(let sender) = step.origin,
      let finding = ledger.checkSender(sender, action: step.action, at: step.step)
    {
      findings.append(finding)
    }
    served.load(step.dependencies)
    reads.begin(step.dependencies)
    let before = watch.use
    watch.counting = true
    defer { watch.counting = false }
    let reduced = try steps.reduce(step)
    watch.counting = false
    // Appending an empty array to an empty one allocates: most steps find nothing.
    let readFindings = reads.end()
    if !readFindings.isEmpty { findings += readFindings }
    let randomness = watch.use - before
    if !randomness.isEmpty {
      findings.append(
        .systemRandomness(getrandom: randomness.getrandom, deviceOpens: randomness.deviceOpens))
    }
    for (id, reason) in reduced.cancellations {
      let cause: EffectCancelCause
      switch reason {
      case .cancelEffect: cause = .cancel(id)
      case .teardown(let kind): cause = .teardown(kind)
      }
      ledger.cancel(id, cause: cause, at: step.step)
    }
    let launched = ledger.launch(reduced.events, at: step.step)
    if !launched.isEmpty { findings += launched }
    let cancelled = ledger.cancellationFindings(at: step.step)
    if !cancelled.isEmpty { findings += cancelled }
    let recorded = Self.recordedSends(of: step.step, in: batch, after: index)
    if reduced.sends != recorded {
      findings.append(.sends(recorded: recorded, replayed: reduced.sends))
    }
    return findings
  }

  /// A jump or a continue of an attached inspector: no reducer runs. A jump shows the state
  /// recorded at it; a continue keeps the jumped state and cancels the effects of the future
  /// it leaves, which the trace must have recorded cancelled by it.
  private func inspectorStep(_ step: RecordedStep, steps: ReplaySteps)
    throws(ReplayError) -> [ReplayFinding]
  {
    switch step.origin {
    case .jump(let recordedStep):
      try steps.jump(step)
      if jumps.isReturn(to: recordedStep) {
        jumps.end()
      } else {
        jumps.jumped(at: step.step, to: recordedStep)
      }
    case .continued:
      if let future = jumps.abandonedFuture { ledger.abandon(future, at: step.step) }
      jumps.end()
    default:
      break
    }
    return ledger.cancellationFindings(at: step.step)
  }

  /// The actions of the steps after `index` in the batch that `step` sent.
  private static func recordedSends(
    of step: Int, in batch: UnsafeBufferPointer<RecordedStep>, after index: Int
  ) -> [TraceValue] {
    var recorded: [TraceValue] = []
    var later = index + 1
    while later < batch.endIndex {
      if batch[later].origin == .send(step: step) { recorded.append(batch[later].action) }
      later += 1
    }
    return recorded
  }
}

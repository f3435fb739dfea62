import TraceKit

/// The first step where the replayed reducer behaves differently from the recording, with
/// every way it differs there: its state, the effects it started or cancelled, the `.send`s
/// it returned, the dependency values it read, its direct use of system randomness.
///
/// ```swift
/// print(divergence)
/// // Step 20 (detail.dismiss) diverged from the trace (19 steps matched before it):
/// //   the trace recorded cancelling `detailFetch` (run, step 12, Detail.swift:31) with
/// //   .cancel(id:); the reducer did not
/// ```
public struct ReplayDivergence: Sendable, Equatable, CustomStringConvertible {
  /// The step number.
  public var step: Int
  /// The action's case path (`counter.incrementTapped`).
  public var actionPath: String
  /// The recorded action.
  public var action: TraceValue
  /// How many steps matched before this one.
  public var matchedSteps: Int
  /// Every way the step differs, causes first (reads, randomness), then effects, `.send`s
  /// and the state.
  public var findings: [ReplayFinding]
  /// The state the trace holds after the step, when the replayed state differs from it.
  public var recorded: TraceValue?
  /// The state the reducer produced, when it differs from the recorded one.
  public var replayed: TraceValue?
  /// What turns the recorded state into the replayed one (empty when the states match).
  public var changes: [TraceChange]

  public init(
    step: Int, actionPath: String, action: TraceValue, matchedSteps: Int,
    findings: [ReplayFinding], recorded: TraceValue? = nil, replayed: TraceValue? = nil,
    changes: [TraceChange] = []
  ) {
    self.step = step
    self.actionPath = actionPath
    self.action = action
    self.matchedSteps = matchedSteps
    self.findings = findings
    self.recorded = recorded
    self.replayed = replayed
    self.changes = changes
  }

  /// The step, then the recorded and the replayed state in the one look of diffs (the same as
  /// `inspector diff` and TestStore failures).
  public var description: String {
    var text =
      "Step \(step) (\(actionPath)) diverged from the trace (\(matchedSteps) "
      + (matchedSteps == 1 ? "step" : "steps") + " matched before it):"
    for finding in findings {
      text += "\n" + finding.description.split(separator: "\n", omittingEmptySubsequences: false)
        .map { "  " + $0 }.joined(separator: "\n")
    }
    if let recorded, let replayed {
      text += "\n\n" + DiffRenderer().text(from: recorded, to: replayed)
        + "\n\n(Recorded: -, Replayed: +)"
    }
    return text
  }
}

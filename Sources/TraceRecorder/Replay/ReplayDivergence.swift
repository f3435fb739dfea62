import TraceKit

/// The first step where the replayed state differs from the recorded one.
///
/// ```swift
/// print(divergence)
/// // Step 3 (counter.incrementTapped) diverged from the trace (2 steps matched before it):
/// //   counter.count: 2 → 3
/// ```
public struct ReplayDivergence: Sendable, Equatable, CustomStringConvertible {
  /// The step number.
  public var step: Int
  /// The action's case path (`counter.incrementTapped`).
  public var actionPath: String
  /// The recorded action.
  public var action: TraceValue
  /// The state the trace holds after the step.
  public var recorded: TraceValue
  /// The state the reducer produced.
  public var replayed: TraceValue
  /// What turns the recorded state into the replayed one.
  public var changes: [TraceChange]
  /// How many steps matched before this one.
  public var matchedSteps: Int

  public var description: String {
    var text =
      "Step \(step) (\(actionPath)) diverged from the trace (\(matchedSteps) steps matched "
      + "before it):"
    for change in changes {
      text += "\n  "
      switch change {
      case .set(let path, let value):
        let old = recorded.value(at: path).map { "\($0)" } ?? "(absent)"
        text += "\(path.description.isEmpty ? "(root)" : path.description): \(old) → \(value)"
      case .insert(let path, let value):
        text += "+ \(path): \(value)"
      case .remove(let path):
        let old = recorded.value(at: path).map { "\($0)" } ?? "(absent)"
        text += "- \(path): \(old)"
      }
    }
    return text
  }
}

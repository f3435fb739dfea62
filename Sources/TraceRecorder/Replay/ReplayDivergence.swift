import TraceKit

/// The first step where the replayed state differs from the recorded one.
///
/// ```swift
/// print(divergence)
/// // Step 3 (counter.incrementTapped) diverged from the trace (2 steps matched before it):
/// //
/// //   (
/// //     counter: (
/// // -     count: 2,
/// // +     count: 3,
/// //       … (1 unchanged)
/// //     )
/// //   )
/// //
/// // (Recorded: -, Replayed: +)
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

  /// The step, then the recorded and the replayed state in the one look of diffs (the same as
  /// `inspector diff` and TestStore failures).
  public var description: String {
    "Step \(step) (\(actionPath)) diverged from the trace (\(matchedSteps) "
      + (matchedSteps == 1 ? "step" : "steps") + " matched before it):\n\n"
      + DiffRenderer().text(from: recorded, to: replayed)
      + "\n\n(Recorded: -, Replayed: +)"
  }
}

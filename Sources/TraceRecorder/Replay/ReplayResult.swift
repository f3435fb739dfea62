import TraceKit

/// How a replay ended.
///
/// ```swift
/// switch try Replay(trace: path, reducer: AppFeature()).run() {
/// case .matched(let steps, _): print("\(steps) steps match")
/// case .diverged(let divergence): print(divergence)
/// }
/// ```
public enum ReplayResult: Sendable, Equatable, CustomStringConvertible {
  /// Every step matched the trace. `unwatched` says why direct use of the system's randomness
  /// could not be watched (nil on Linux, where it is).
  case matched(steps: Int, unwatched: String? = nil)
  /// The first step that differs.
  case diverged(ReplayDivergence)

  public var description: String {
    switch self {
    case .matched(let steps, let unwatched):
      "Replayed \(steps == 1 ? "1 step" : "\(steps) steps"): every state, effect and "
        + "dependency read matches the trace."
        + (unwatched.map { " (Not checked: direct use of system randomness; \($0).)" } ?? "")
    case .diverged(let divergence):
      divergence.description
    }
  }
}

import TraceKit

/// How a replay ended.
///
/// ```swift
/// switch try Replay(trace: path, reducer: AppFeature()).run() {
/// case .matched(let steps): print("\(steps) steps match")
/// case .diverged(let divergence): print(divergence)
/// }
/// ```
public enum ReplayResult: Sendable, Equatable, CustomStringConvertible {
  /// Every step's state matched the trace.
  case matched(steps: Int)
  /// The first step whose state differs.
  case diverged(ReplayDivergence)

  public var description: String {
    switch self {
    case .matched(let steps):
      "Replayed \(steps) steps: every state matches the trace."
    case .diverged(let divergence):
      divergence.description
    }
  }
}

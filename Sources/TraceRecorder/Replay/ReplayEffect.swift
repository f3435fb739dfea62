/// An effect as a replay report names it: what kind of task, its cancellation ids, the step
/// whose reducer returned it and where `Effect.run` was called.
///
/// ```swift
/// let effect = ReplayEffect(
///   kind: "run", cancelID: "search", startedByStep: 7, location: "Search.swift:41")
/// print(effect)  // `search` (run, step 7, Search.swift:41)
/// ```
public struct ReplayEffect: Sendable, Hashable, CustomStringConvertible {
  /// `run`, or `concatenation` for the task running a concatenation's later parts.
  public var kind: String
  /// The cancellation ids it was registered under, as the trace writes them.
  public var cancelID: String?
  /// The step whose reducer returned it.
  public var startedByStep: Int
  /// `File.swift:line` of its `Effect.run`, when known.
  public var location: String?

  public init(kind: String, cancelID: String?, startedByStep: Int, location: String?) {
    self.kind = kind
    self.cancelID = cancelID
    self.startedByStep = startedByStep
    self.location = location
  }

  public var description: String {
    var details = [kind, "step \(startedByStep)"]
    if let location { details.append(location) }
    let name = cancelID.map { "`\($0)`" } ?? "an effect without a cancel id"
    return "\(name) (" + details.joined(separator: ", ") + ")"
  }
}

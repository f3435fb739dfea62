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

/// Why a replay could not run.
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// The trace could not be opened or read.
    case unreadableTrace(String)
    /// The trace has dropped steps; replay needs every step.
    case gap(afterStep: Int, dropped: Int)
    /// The recorded state does not fit the current `State` type.
    case stateShape(type: String, detail: String)
    /// A recorded action does not fit the current `Action` type.
    case actionShape(step: Int, actionPath: String, type: String, detail: String)
    /// The replayed state could not be encoded.
    case encoding(step: Int, detail: String)
  }

  public var kind: Kind
  /// The trace file.
  public var path: String

  public init(_ kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }

  public var description: String {
    switch kind {
    case .unreadableTrace(let message):
      "Cannot replay \(path): \(message)"
    case .gap(let after, let dropped):
      "Cannot replay \(path): \(dropped) steps after step \(after) were dropped while "
        + "recording"
    case .stateShape(let type, let detail):
      "Cannot replay \(path): the recorded state does not fit \(type): \(detail)"
    case .actionShape(let step, let actionPath, let type, let detail):
      "Cannot replay \(path): the action of step \(step) (\(actionPath)) does not fit "
        + "\(type): \(detail)"
    case .encoding(let step, let detail):
      "Cannot replay \(path): the state after step \(step) could not be encoded: \(detail)"
    }
  }
}

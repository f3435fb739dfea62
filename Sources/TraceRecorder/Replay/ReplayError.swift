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
    /// The trace was written in an older format whose state encoding differs from today's.
    case formatVersion(Int)
    /// The trace does not record what replay needs to check effects (each effect's kind,
    /// parent and the steps around its start and end): it was recorded before they were.
    case effectsUnrecorded
    /// A chaos replay found that the reducer, run in the recorded order, does not end as the
    /// recording did: `run()` says at which step it first differs.
    case chaosRecordedOrderDiffers
    /// A chaos replay met an inspector's jump or continue: orders of one timeline's actions
    /// cannot be tried across a state an inspector put in place.
    case chaosAcrossInspectorStep(step: Int)
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
    case .formatVersion(let version):
      "Cannot replay \(path): it was recorded in trace format version \(version), which "
        + "encoded dates as numbers and left nil fields out, so no state re-encoded today "
        + "hashes as it did; record it again to replay it (the inspector still reads it)"
    case .effectsUnrecorded:
      "Cannot replay \(path): it does not record when its effects started and ended, which "
        + "checking them needs; record it again to replay it"
    case .chaosRecordedOrderDiffers:
      "Cannot replay \(path) in other orders: in the recorded order the reducer already ends "
        + "with another state than the recording's (a plain replay shows the first step that "
        + "differs)"
    case .chaosAcrossInspectorStep(let step):
      "Cannot replay \(path) in other orders: step \(step) is an attached inspector's jump or "
        + "continue, which replaced the state between recorded actions; a plain replay checks "
        + "it, and chaos replay needs a recording without one"
    }
  }
}

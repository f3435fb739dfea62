import TraceKit

/// What an inspector asks a live app to do (each answered with `ok` or `error`).
///
/// ```json
/// {"type":"jump","id":3,"step":12}
/// {"type":"send","id":4,"action":{"$case":"plus"}}
/// ```
package enum LiveCommand: Sendable {
  /// Hold the actions of the user and of effects, in order, until `resume`.
  case pause
  /// Return to the present if jumped, then reduce the held actions.
  case resume
  /// Show the recorded state after `step`; actions are held as when paused.
  case jump(step: Int)
  /// Keep the jumped state, cancel the effects of the future it leaves, go on.
  case continueFromHere
  /// Reduce this action (the trace's JSON of the app's `Action`) with origin `inspector`.
  case send(action: TraceValue)
  /// Only the status.
  case status

  /// The message type on the wire.
  package var type: String {
    switch self {
    case .pause: "pause"
    case .resume: "resume"
    case .jump: "jump"
    case .continueFromHere: "continue"
    case .send: "send"
    case .status: "status"
    }
  }
}

import LiveAttach
import TraceKit

/// `inspector pause|resume|jump N|continue|send ACTION APP`: one command to a live app, and
/// one line saying what it did and where the app is now.
///
/// ```text
/// $ inspector jump rewind-demo 12
/// step 58: jumped to step 12; paused at step 12 (jumped; resume returns to step 57)
/// ```
enum ControlCommand {
  static func run(_ context: LiveContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let command = try self.command(context)
    let app = try context.app()
    let client = try context.connect(app)
    defer { client.close() }
    let answer: (status: LiveStatus, step: Int?)
    do {
      answer = try client.run(command)
    } catch {
      throw context.failure(error, app)
    }
    out.write(line(command, answer.step, answer.status) + "\n")
  }

  private static func command(_ context: LiveContext) throws(InspectorError) -> LiveCommand {
    let arguments = context.arguments
    switch arguments.command {
    case "pause": return .pause
    case "resume": return .resume
    case "continue": return .continueFromHere
    case "jump":
      return .jump(
        step: try ParsedArguments.integer(arguments.positionals[1], for: "STEP", in: "jump"))
    default:
      do {
        return .send(action: try TraceValue(json: arguments.positionals[1]))
      } catch {
        throw .usage("ACTION is not JSON: \(error)", where: "send")
      }
    }
  }

  /// What the command did, then the app's status.
  static func line(_ command: LiveCommand, _ step: Int?, _ status: LiveStatus) -> String {
    switch command {
    case .pause: return "paused after step \(status.lastStep)"
    case .resume:
      return (step.map { "step \($0): back to the present; " } ?? "")
        + "running from step \(status.lastStep)"
    case .jump(let target):
      return "step \(step ?? 0): jumped to step \(target); " + status.text
    case .continueFromHere:
      return "step \(step ?? 0): continued from the jumped state; running"
    case .send: return "step \(step ?? 0): sent by the inspector; " + status.text
    case .status: return "step \(status.lastStep); " + status.text
    }
  }
}

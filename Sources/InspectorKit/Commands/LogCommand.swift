import Foundation
import TraceKit

/// `inspector log TRACE [--from N] [--to N] [--grep REGEX] [--path P] [--origin O] [--limit N]`:
/// one line per step, streamed from the index.
///
/// ```text
///      0  00:00.000  initial
///      1  00:00.012  user      counter.incrementTapped               → counter.count
///      2  00:00.250  effect 5A1C0E42  counter.factResponse("1 is …") → counter.fact
/// ```
enum LogCommand {
  struct Filter {
    var grep: NSRegularExpression?
    var path: PathQuery?
    var origin: String?

    func accepts(_ entry: StepRow) -> Bool {
      if let grep {
        let range = NSRange(entry.actionPath.startIndex..., in: entry.actionPath)
        if grep.firstMatch(in: entry.actionPath, range: range) == nil { return false }
      }
      if let path, !entry.changedPaths.contains(where: path.touches) { return false }
      switch origin {
      case "user": if entry.origin != .user { return false }
      case "effect": if case .effect = entry.origin {} else { return false }
      default: break
      }
      return true
    }
  }

  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let arguments = context.arguments
    let summary = try context.source.summary()
    let from = try arguments.integer("--from") ?? 0
    let to = try arguments.integer("--to") ?? summary.stepCount
    try context.checkStep(from, in: summary)
    try context.checkStep(to, in: summary)
    guard from <= to else {
      throw .usage("--from \(from) is after --to \(to)", where: "log")
    }
    let limit = try arguments.integer("--limit")
    let filter = Filter(
      grep: try arguments.value("--grep").map(regex),
      path: try arguments.value("--path").map { text throws(InspectorError) in
        try PathQuery(text, command: "log")
      },
      origin: try arguments.value("--origin").map(origin))
    let json = arguments.flag("--json")
    let line = LineFormat(
      width: context.terminal.lineWidth, style: context.style, lastStep: summary.stepCount)
    var printed = 0
    if json { out.write("[") }
    if limit == 0 {
      if json { out.write("]\n") }
      return
    }
    var expected = from
    var stopped = false
    do throws(InspectorError) {
      try context.source.forEachStepContent(from: from, to: to) {
        entry, content throws(InspectorError) in
        // Dropped steps are never silent: the recorder's gaps show where they were (a hole
        // that no gap records is an error of the reader, never shown as dropped steps).
        if !json, entry.step > expected {
          let missing = entry.step - expected
          out.write(
            context.style.warning(
              "   … " + NumberText.counted(missing, "step") + " not recorded (dropped)") + "\n")
        }
        expected = entry.step + 1
        guard filter.accepts(entry) else { return true }
        let action = entry.step == 0 ? TraceValue.null : try content.action()
        if json {
          out.write((printed == 0 ? "\n" : ",\n") + Self.json(entry, action: action))
        } else {
          out.write(line.render(entry, action: action) + "\n")
        }
        printed += 1
        stopped = limit.map { printed >= $0 } ?? false
        return !stopped
      }
    } catch {
      // A document that a damaged step ends early stays valid JSON and says why it ends.
      if json { out.write((printed == 0 ? "\n" : ",\n") + JSONOutput.error(error) + "\n]\n") }
      throw error
    }
    // Steps dropped after the last recorded one (the recording finished while the writer was
    // behind) are a gap too.
    if !json, !stopped, to == summary.stepCount, summary.sentSteps > summary.stepCount {
      out.write(
        context.style.warning(
          "   … " + NumberText.counted(summary.sentSteps - summary.stepCount, "step")
            + " not recorded (dropped)") + "\n")
    }
    if json { out.write(printed == 0 ? "]\n" : "\n]\n") }
  }

  static func regex(_ text: String) throws(InspectorError) -> NSRegularExpression {
    do {
      return try NSRegularExpression(pattern: text)
    } catch {
      throw .usage(
        "invalid regular expression \(EscapedText.quoted(text))", where: "log --grep")
    }
  }

  static func origin(_ text: String) throws(InspectorError) -> String {
    guard text == "user" || text == "effect" else {
      throw .usage(
        "invalid value '\(text)' for --origin: expected 'user' or 'effect'", where: "log")
    }
    return text
  }

  static func json(_ entry: StepRow, action: TraceValue) -> String {
    var json = JSONOutput()
    json.object { j in
      StepJSON.write(entry, into: &j)
      j.field("action") { $0.value(action) }
    }
    return json.text
  }
}

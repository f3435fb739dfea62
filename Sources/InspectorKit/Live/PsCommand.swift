import LiveAttach
import TraceKit

/// `inspector ps [--json]`: the live apps of this user, one line each.
///
/// ```text
///   PID  NAME         REDUCER  STEPS  STATUS   SINCE                 FILE
///  4242  rewind-demo  Counter     57  running  2026-12-01 17:03:21Z  -
/// ```
enum PsCommand {
  static func run(_ context: LiveContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let listing: LiveApps.Listing
    do {
      listing = try LiveApps.list(in: context.location)
    } catch {
      throw .input(error.description, where: "ps")
    }
    for pid in listing.removed {
      var err = StandardStream.error
      err.write("inspector: removed the socket of process \(pid), which is gone (ps)\n")
      err.flush()
    }
    if context.arguments.flag("--json") {
      out.write(json(listing) + "\n")
      return
    }
    let header = ["PID", "NAME", "REDUCER", "STEPS", "STATUS", "SINCE", "FILE"]
    var rows = listing.apps.map { app -> [String] in
      let welcome = app.welcome
      return [
        String(welcome.pid), EscapedText.plain(welcome.name),
        EscapedText.plain(welcome.rootReducer), NumberText.grouped(welcome.status.lastStep),
        welcome.status.isPaused ? "paused" : "running", NumberText.dateTime(welcome.since),
        welcome.file.map(EscapedText.plain) ?? "-",
      ]
    }
    for (pid, reason) in listing.unreachable {
      rows.append([String(pid), "?", "(\(EscapedText.plain(reason)))", "", "", "", ""])
    }
    if rows.isEmpty {
      out.write(context.style.dim("(no live apps of this user)") + "\n")
      return
    }
    let table = [header] + rows
    let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
    // Numbers are right-aligned, text left-aligned; the last column is not padded.
    let right: Set<Int> = [0, 3]
    for (index, row) in table.enumerated() {
      var line = ""
      for column in row.indices {
        let cell = row[column]
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        let isLast = column == row.count - 1
        line += right.contains(column) ? padding + cell : cell + (isLast ? "" : padding)
        if !isLast { line += "  " }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      out.write((index == 0 ? context.style.bold(line) : line) + "\n")
    }
  }

  private static func json(_ listing: LiveApps.Listing) -> String {
    var json = JSONOutput()
    json.array { json in
      for app in listing.apps {
        let welcome = app.welcome
        json.object { json in
          json.field("pid") { $0.int(welcome.pid) }
          json.field("name") { $0.string(welcome.name) }
          json.field("rootReducer") { $0.string(welcome.rootReducer) }
          json.field("stateType") { $0.string(welcome.stateType) }
          json.field("actionType") { $0.string(welcome.actionType) }
          json.field("steps") { $0.int(welcome.status.lastStep) }
          json.field("firstStepHeld") { $0.int(welcome.firstStep) }
          json.field("lastStepHeld") { $0.int(welcome.lastStep) }
          json.field("paused") { $0.bool(welcome.status.isPaused) }
          json.field("since") { $0.double(welcome.since) }
          json.field("file") { json in
            if let file = welcome.file { json.string(file) } else { json.null() }
          }
          json.field("socket") { $0.string(app.socketPath) }
          json.field("canJump") { $0.bool(welcome.canJump) }
          json.field("canSend") { $0.bool(welcome.canSend) }
        }
      }
    }
    return json.text
  }
}

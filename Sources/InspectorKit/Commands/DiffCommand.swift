import TraceKit

/// `inspector diff TRACE A [B] [--path P] [--context N] [--json]`: the structural diff of the
/// state between two steps (A−1 and A when B is left out).
///
/// ```text
/// diff 4 → 5: counter.incrementTapped
/// changed: counter.count
///   AppFeature.State(
///     counter: (
/// -     count: 1,
/// +     count: 2,
///       … (1 unchanged)
///     ),
///     … (3 unchanged)
///   )
/// ```
enum DiffCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let arguments = context.arguments
    let summary = try context.source.summary()
    let first: Int
    let second: Int
    if arguments.positionals.count > 2 {
      first = try context.step(arguments.positionals[1], named: "A", in: summary)
      second = try context.step(arguments.positionals[2], named: "B", in: summary)
    } else {
      second = try context.step(arguments.positionals[1], named: "A", in: summary, lowest: 1)
      // Against the previous recorded step: when the recorder dropped steps before A, that is
      // the step before the gap.
      first =
        summary.gaps.first { $0.afterStep + $0.dropped == second - 1 }?.afterStep
        ?? second - 1
    }
    let query = try arguments.value("--path").map { text throws(InspectorError) in
      try PathQuery(text, command: "diff")
    }
    let contextLines = try arguments.integer("--context") ?? 0
    var old = try context.source.state(at: first)
    var new = try context.source.state(at: second)
    if let query {
      let oldPart = old.value(at: query.path)
      let newPart = new.value(at: query.path)
      if oldPart == nil, newPart == nil {
        throw .input(
          "no value at path '\(query.text)'", where: context.location(step: second))
      }
      old = oldPart ?? .null
      new = newPart ?? .null
    }
    let renderer = DiffRenderer(width: context.terminal.width, context: contextLines)
    let typeName = query == nil ? summary.stateType : nil
    let result = renderer.diff(from: old, to: new, typeName: typeName)
    let base = query?.path ?? .root
    let paths = result.paths.map { TracePath(base.components + $0.components) }
    if arguments.flag("--json") {
      out.write(json(first, second, paths: result.paths, base: base, old: old, new: new) + "\n")
      return
    }
    var header = "diff \(first) → \(second)"
    if arguments.positionals.count == 2 || second == first + 1 {
      try context.source.forEachStep(from: second, to: second) { entry in
        header += ": " + EscapedText.plain(entry.actionPath)
        return false
      }
      if second - first > 1 {
        header += " (steps \(first + 1)…\(second - 1) not recorded)"
      }
    }
    out.write(context.style.bold(header) + "\n")
    if result.lines.isEmpty {
      out.write(context.style.dim("(no changes)") + "\n")
      return
    }
    let changed = paths.map { EscapedText.plain($0.description) }.joined(separator: ", ")
    out.write("changed: " + context.style.path(changed) + "\n")
    for line in result.lines {
      out.write(context.style.diff(line.kind, renderer.marked(line)) + "\n")
    }
  }

  static func json(
    _ first: Int, _ second: Int, paths: [TracePath], base: TracePath, old: TraceValue,
    new: TraceValue
  ) -> String {
    var json = JSONOutput()
    json.object { j in
      j.field("from") { $0.int(first) }
      j.field("to") { $0.int(second) }
      j.field("changes") { j in
        j.array { j in
          for path in paths {
            j.object { j in
              let full = TracePath(base.components + path.components)
              j.field("path") { $0.string(full.description) }
              // A side without a value (an insertion, a removal) leaves its field out.
              if let value = old.value(at: path) { j.field("old") { $0.value(value) } }
              if let value = new.value(at: path) { j.field("new") { $0.value(value) } }
            }
          }
        }
      }
    }
    return json.text
  }
}

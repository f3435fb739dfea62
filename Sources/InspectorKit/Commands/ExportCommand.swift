import TraceKit

/// `inspector export TRACE [--format json|perfetto] [--from N] [--to N]`: the trace, or a
/// range of it, as one JSON document (shape in `ExportDocument.shape`) or as a timeline for
/// Perfetto (`PerfettoExport`), streamed step by step.
enum ExportCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let arguments = context.arguments
    let format = arguments.value("--format") ?? "json"
    guard format == "json" || format == "perfetto" else {
      throw .usage(
        "unsupported format '\(format)': expected 'json' or 'perfetto'", where: "export --format")
    }
    let source = context.source
    let summary = try source.summary()
    let from = try arguments.integer("--from") ?? 0
    let to = try arguments.integer("--to") ?? summary.stepCount
    try context.checkStep(from, in: summary)
    try context.checkStep(to, in: summary)
    guard from <= to else {
      throw .usage("--from \(from) is after --to \(to)", where: "export")
    }
    if format == "perfetto" {
      try PerfettoExport.run(source, summary: summary, from: from, to: to, out: &out)
      return
    }
    var head = JSONOutput()
    head.field("format") { $0.string("rewind-export") }
    head.field("version") { $0.int(ExportDocument.version) }
    out.write("{" + head.text + ",\n\"trace\":" + InfoCommand.json(summary))
    out.write(",\n\"range\":{\"from\":\(from),\"to\":\(to)}")
    var inSteps = false
    do throws(InspectorError) {
      try writeBody(source, from: from, to: to, inSteps: &inSteps, out: &out)
    } catch {
      // A document that damage ends early stays valid JSON and says why it ends there.
      out.write((inSteps ? "\n]" : "") + ",\n\"error\":" + JSONOutput.quoted(error.message))
      out.write("\n}\n")
      throw error
    }
  }

  /// Everything after `range`: the tree, the initial state, the steps and the effects.
  private static func writeBody(
    _ source: any TraceSource, from: Int, to: Int, inSteps: inout Bool,
    out: inout some FlushingOutput
  ) throws(InspectorError) {
    var tree = JSONOutput()
    if let root = try source.tree() {
      ExportDocument.writeTree(root, into: &tree)
    } else {
      tree.null()
    }
    out.write(",\n\"tree\":" + tree.text)
    var initial = JSONOutput()
    initial.value(try source.state(at: from))
    out.write(",\n\"initialState\":" + initial.text)
    out.write(",\n\"steps\":[")
    inSteps = true
    let wroteAny = try ExportSteps.write(source, from: from, to: to, out: &out)
    out.write(wroteAny ? "\n]" : "]")
    inSteps = false
    let effects = try source.effects().filter { (from...to).contains($0.startedByStep) }
    out.write(",\n\"effects\":" + EffectsCommand.json(effects) + "\n}\n")
  }
}

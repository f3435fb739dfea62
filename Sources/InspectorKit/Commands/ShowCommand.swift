import TraceKit

/// `inspector show TRACE STEP [--path P] [--max-items N] [--json]`: the state after a step, from
/// the nearest keyframe and the diffs after it.
///
/// ```text
/// Counter.State(
///   count: 2,
///   todos: [
///     [0]: (id: 1, title: "Milk", done: false),
///     … 9,990 more
///   ]
/// )
/// ```
enum ShowCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let arguments = context.arguments
    let summary = try context.source.summary()
    let step = try context.step(arguments.positionals[1], named: "STEP", in: summary)
    let query = try arguments.value("--path").map { text throws(InspectorError) in
      try PathQuery(text, command: "show")
    }
    let maxItems = try arguments.integer("--max-items") ?? 50
    var state = try context.source.state(at: step)
    if let query { state = try query.select(in: state, context: context, step: step) }
    if arguments.flag("--json") {
      var json = JSONOutput()
      json.object { j in
        j.field("step") { $0.int(step) }
        j.field("path") { $0.string(query?.path.description ?? ".") }
        j.field("state") { $0.value(state) }
      }
      out.write(json.text + "\n")
      return
    }
    let dumper = ValueDumper(width: context.terminal.width, maxItems: maxItems)
    dumper.dump(state, typeName: query == nil ? summary.stateType : nil, into: &out)
  }
}

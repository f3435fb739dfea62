import TraceKit

/// `inspector compare A B [--json]`: two recordings of the same feature side by side, up to
/// the first step where the actions differ, or where the same action left different states,
/// or where one trace ends (see `TraceComparison`). Exit status 0 when they are the same, 1
/// when they differ, 2 when one cannot be read.
///
/// ```text
/// compare: the traces differ at step 4: another action
///   step  A (a.rewind)                   B (b.rewind)
///      3  effect of step 2  reported(1)  effect of step 2  reported(1)
///      4  user  add(2)                   user  add(3)
/// ```
enum CompareCommand {
  static func run(_ context: CommandContext, other: String, out: inout some FlushingOutput)
    throws(InspectorError)
  {
    let first = context.source.path
    let result: TraceComparison.Result
    do {
      result = try TraceComparison.compare(
        try TraceReader(path: first), try TraceReader(path: other))
    } catch {
      throw .input(error.description, where: "compare")
    }
    if context.arguments.flag("--json") {
      out.write(json(result, a: first, b: other) + "\n")
    } else {
      render(result, a: first, b: other, context: context, out: &out)
    }
    guard result.difference == nil else {
      throw InspectorError(.checkFailed, "the traces differ", where: "compare")
    }
  }

  /// What the difference is, in words.
  static func headline(_ result: TraceComparison.Result) -> String {
    switch result.difference {
    case nil:
      "the traces are the same: "
        + NumberText.counted(result.sameSteps, "step") + ", every action and state"
    case .initialState?:
      "the traces differ at step 0: the initial states"
    case .action(let step)?:
      "the traces differ at step \(step): another action"
    case .state(let step)?:
      "the traces differ at step \(step): the same action left different states"
    case .ends(let step, let first)?:
      "trace \(first.rawValue) ends after step \(step); the other goes on "
        + "(\(NumberText.counted(result.sameSteps, "step")) the same)"
    case .missingStep(let step, let side)?:
      "trace \(side.rawValue) has no step \(step) (its recorder dropped it); the other has it"
    }
  }

  static func render(
    _ result: TraceComparison.Result, a: String, b: String, context: CommandContext,
    out: inout some FlushingOutput
  ) {
    out.write("compare: " + headline(result) + "\n")
    guard result.difference != nil else { return }
    let format = LineFormat(width: .max, style: context.style)
    func text(_ step: TraceComparison.Step?) -> String {
      guard let step else { return "" }
      return step.originText + "  " + EscapedText.plain(step.actionPath)
        + format.payload(step.action)
    }
    let numbers = result.context.map { ($0.a ?? $0.b).map { String($0.step) } ?? "" }
    let numberWidth = max(4, numbers.map(\.count).max() ?? 0)
    let left = result.context.map { text($0.a) }
    let leftTitle = "A (\(EscapedText.plain(a)))"
    let leftWidth = max(leftTitle.count, left.map(\.count).max() ?? 0)
    out.write(
      "  " + padded("step", numberWidth) + "  "
        + HelpText.padded(leftTitle, leftWidth) + "  B (\(EscapedText.plain(b)))\n")
    for (index, pair) in result.context.enumerated() {
      var line =
        "  " + padded(numbers[index], numberWidth) + "  "
        + HelpText.padded(left[index], leftWidth) + "  " + text(pair.b)
      while line.last == " " { line.removeLast() }
      out.write(line + "\n")
    }
    if let states = result.states {
      let step = result.context.last?.a?.step ?? 0
      out.write("state after step \(step) (A: -, B: +):\n")
      DiffRenderer(width: context.terminal.width)
        .render(from: states.a, to: states.b, into: &out, paint: context.style.diff)
    }
  }

  /// `text` right-aligned in `width` columns.
  private static func padded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  static func json(_ result: TraceComparison.Result, a: String, b: String) -> String {
    var json = JSONOutput()
    json.object { j in
      j.field("same") { $0.bool(result.difference == nil) }
      j.field("sameSteps") { $0.int(result.sameSteps) }
      j.field("a") { $0.string(a) }
      j.field("b") { $0.string(b) }
      j.field("difference") { j in
        guard let difference = result.difference else { return j.null() }
        j.object { j in
          switch difference {
          case .initialState:
            j.field("kind") { $0.string("initialState") }
            j.field("step") { $0.int(0) }
          case .action(let step):
            j.field("kind") { $0.string("action") }
            j.field("step") { $0.int(step) }
          case .state(let step):
            j.field("kind") { $0.string("state") }
            j.field("step") { $0.int(step) }
          case .ends(let step, let first):
            j.field("kind") { $0.string("ends") }
            j.field("step") { $0.int(step) }
            j.field("first") { $0.string(first.rawValue) }
          case .missingStep(let step, let side):
            j.field("kind") { $0.string("missingStep") }
            j.field("step") { $0.int(step) }
            j.field("missingIn") { $0.string(side.rawValue) }
          }
        }
      }
      j.field("context") { j in
        j.array { j in
          for pair in result.context {
            j.object { j in
              j.field("a") { j in write(pair.a, into: &j) }
              j.field("b") { j in write(pair.b, into: &j) }
            }
          }
        }
      }
      j.field("changes") { j in
        guard let states = result.states else { return j.null() }
        j.array { j in
          for change in TraceDiff.changes(from: states.a, to: states.b) {
            j.value(change.jsonValue)
          }
        }
      }
    }
    return json.text
  }

  private static func write(_ step: TraceComparison.Step?, into json: inout JSONOutput) {
    guard let step else { return json.null() }
    json.object { j in
      j.field("step") { $0.int(step.step) }
      j.field("origin") { $0.string(step.originText) }
      j.field("actionPath") { $0.string(step.actionPath) }
      j.field("action") { $0.value(step.action) }
      j.field("stateHash") { $0.string(HashText.hex(step.stateHash)) }
    }
  }
}

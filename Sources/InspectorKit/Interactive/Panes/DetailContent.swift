import Foundation
import TraceKit

/// The lines of each tab of the detail pane, from the trace and the one renderer of values
/// and diffs (the same text as `inspector diff`, `show` and `effects`).
///
/// ```swift
/// let lines = try DetailContent.action(source, row: row, width: 60)
/// lines.map(\.text)  // ["action of step 2: todos.addTapped", ".todos(", …]
/// ```
enum DetailContent {
  /// The state at `step` against the state at `base` (the previous recorded step, or a mark).
  static func diff(
    _ source: any TraceSource, row: StepRow, base: Int?, isMark: Bool, stateType: String,
    width: Int
  ) throws(InspectorError) -> [DetailLine] {
    guard let base else {
      return [
        DetailLine("step \(row.step): the initial state", style: .bold),
        DetailLine("nothing before it to compare with; the State tab shows it", style: .dim),
      ]
    }
    var header = "diff \(base) → \(row.step)"
    if !isMark, base < row.step { header += ": " + EscapedText.plain(row.actionPath) }
    if isMark { header += "  (from the mark)" }
    var lines = [DetailLine(header, style: .bold)]
    if !isMark, row.step - base > 1, base < row.step {
      lines.append(
        DetailLine("steps \(base + 1)…\(row.step - 1) not recorded (dropped)", style: .warning))
    }
    let old = try source.state(at: base)
    let new = try source.state(at: row.step)
    let renderer = DiffRenderer(width: width)
    let result = renderer.diff(from: old, to: new, typeName: stateType)
    if result.lines.isEmpty {
      lines.append(DetailLine("(no changes)", style: .dim))
      return lines
    }
    let changed = result.paths.map { EscapedText.plain($0.description) }.joined(separator: ", ")
    lines.append(DetailLine("changed: " + changed, style: .path))
    for line in result.lines {
      let style: CellStyle =
        switch line.kind {
        case .first: .removed
        case .second: .inserted
        case .both: .plain
        }
      lines.append(DetailLine(renderer.marked(line), style: style))
    }
    return lines
  }

  /// The state after `step` as an outline: containers in `expanded` open, the others on one
  /// line, each line with its path.
  static func state(
    _ source: any TraceSource, step: Int, expanded: Set<TracePath>, stateType: String,
    width: Int
  ) throws(InspectorError) -> [DetailLine] {
    let state = try source.state(at: step)
    var lines: [DetailLine] = []
    ValueDumper(width: width).outline(state, typeName: stateType, expanded: expanded) { line in
      let pad = String(repeating: " ", count: line.indent)
      switch line.kind {
      case .open:
        lines.append(DetailLine(pad + "▾ " + line.text, path: line.path, isOpen: true))
      case .closed:
        lines.append(DetailLine(pad + "▸ " + line.text, path: line.path, isOpen: false))
      case .leaf, .close:
        lines.append(DetailLine(pad + "  " + line.text, path: line.path))
      case .more:
        lines.append(DetailLine(pad + "  " + line.text, style: .dim, path: line.path))
      }
    }
    return lines
  }

  /// The step's whole action.
  static func action(
    _ source: any TraceSource, row: StepRow, width: Int
  ) throws(InspectorError) -> [DetailLine] {
    guard row.step > 0 else {
      return [DetailLine("step 0 has no action: it is the initial state", style: .dim)]
    }
    var lines = [
      DetailLine("action of step \(row.step): " + EscapedText.plain(row.actionPath), style: .bold)
    ]
    ValueDumper(width: width, maxItems: 0).lines(try source.action(at: row.step)) {
      lines.append(DetailLine($0))
    }
    return lines
  }

  /// Sent steps listed per effect before the rest are counted.
  static let sentShown = 20

  /// The effect that sent the step's action, and the effects its reducer started; each with
  /// the steps it sent. Enter on an effect goes to the step that started it, on a sent step
  /// to that step.
  static func effects(
    _ source: any TraceSource, row: StepRow
  ) throws(InspectorError) -> [DetailLine] {
    var lines: [DetailLine] = []
    if case .send(let step) = row.origin {
      lines.append(DetailLine("sent by", style: .bold))
      lines.append(DetailLine("  a .send the reducer of step \(step) returned", step: step))
    }
    if case .effect(let id) = row.origin {
      lines.append(DetailLine("sent by", style: .bold))
      if let effect = try source.effect(id: id) {
        lines += try describe(effect, source, current: row.step)
      } else {
        lines.append(
          DetailLine("  effect \(short(id)): not in the effects table", style: .warning))
      }
    }
    let started = try source.effects(startedBy: row.step)
    lines.append(
      DetailLine(
        "started by this step: " + (started.isEmpty ? "none" : String(started.count)),
        style: .bold))
    for effect in started {
      lines += try describe(effect, source, current: row.step)
    }
    return lines
  }

  private static func describe(
    _ effect: EffectRecord, _ source: any TraceSource, current: Int
  ) throws(InspectorError) -> [DetailLine] {
    var parts = [short(effect.id), "started by step \(effect.startedByStep)"]
    parts.append(EffectTable.outcome(effect.outcome))
    if let duration = effect.durationNanos { parts.append(NumberText.duration(nanos: duration)) }
    var lines = [DetailLine("  " + parts.joined(separator: "  "), step: effect.startedByStep)]
    var details: [String] = []
    if let cancelID = effect.cancelID {
      details.append("cancel id " + EscapedText.plain(cancelID))
    }
    if let file = effect.file {
      details.append(
        EscapedText.plain(EffectTable.basename(file)) + (effect.line.map { ":\($0)" } ?? ""))
    }
    if !details.isEmpty {
      lines.append(
        DetailLine(
          "    " + details.joined(separator: " · "), style: .dim, step: effect.startedByStep))
    }
    if effect.sentSteps.isEmpty {
      lines.append(DetailLine("    sent nothing", style: .dim))
    }
    for step in effect.sentSteps.prefix(sentShown) {
      let path =
        try source.rows(matching: StepFilter(from: step, to: step), limit: 1, descending: false)
        .first?.actionPath ?? "(not recorded)"
      let here = step == current ? "  ← this step" : ""
      lines.append(
        DetailLine("    sent step \(step)  " + EscapedText.plain(path) + here, step: step))
    }
    if effect.sentSteps.count > sentShown {
      lines.append(
        DetailLine(
          "    … " + NumberText.counted(effect.sentSteps.count - sentShown, "more step")
            + " sent", style: .dim))
    }
    return lines
  }

  /// The reducer tree, each node with the steps it handled (while `counts` is being filled,
  /// "counting…"), the nodes the step's action went through marked.
  static func tree(
    _ root: ReducerTreeNode?, actionPath: String, step: Int, counts: [String: Int]?
  ) -> [DetailLine] {
    guard let root else { return [DetailLine("the trace holds no reducer tree", style: .dim)] }
    let counted = TreeCommand.count(root, inherited: nil, counts ?? [:], [:])
    var lines = [
      DetailLine(
        step == 0 ? "the reducer tree" : "nodes step \(step) went through are marked ●",
        style: .bold)
    ]
    func walk(
      _ node: ReducerTreeNode, _ counted: TreeRenderer.Node, inherited: String?, prefix: String,
      childPrefix: String
    ) {
      let actionPrefix = node.actionPrefix ?? inherited
      let handled =
        step > 0
        && (actionPrefix.map { $0.isEmpty || PathQuery.isPrefix($0, of: actionPath) }
          ?? true)
      let count = counts == nil ? "counting…" : NumberText.counted(counted.steps, "step")
      lines.append(
        DetailLine(
          (handled ? "● " : "  ") + prefix + counted.title + "  " + count,
          style: handled ? .hit : .plain))
      for (offset, child) in node.children.enumerated() {
        let last = offset == node.children.count - 1
        walk(
          child, counted.children[offset], inherited: actionPrefix,
          prefix: childPrefix + (last ? "└─ " : "├─ "),
          childPrefix: childPrefix + (last ? "   " : "│  "))
      }
    }
    walk(root, counted, inherited: nil, prefix: "", childPrefix: "")
    return lines
  }

  static func short(_ id: UUID) -> String {
    UUIDText.short(id).lowercased()
  }
}

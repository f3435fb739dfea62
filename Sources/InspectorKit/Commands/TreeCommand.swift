import TraceKit

/// `inspector tree TRACE [--json]`: the stored reducer tree; a node handled a step when the
/// step's action path starts with the node's action prefix (a node without one handles what
/// its parent handles), and started the effects those steps returned.
///
/// ```text
/// Recorder AppFeature                      12 steps   3 effects
/// └─ Scope(counter) CounterFeature          7 steps   2 effects
/// ```
enum TreeCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    guard let root = try context.source.tree() else {
      throw .input("the trace holds no reducer tree", where: context.source.path)
    }
    let summary = try context.source.summary()
    // One pass over the index: steps per action path, then per node by prefix.
    var stepsByPath: [String: Int] = [:]
    var pathOfStep: [Int: String] = [:]
    let effects = try context.source.effects()
    let effectSteps = Set(effects.map(\.startedByStep))
    try context.source.forEachStep(from: 1, to: max(1, summary.stepCount)) { entry in
      stepsByPath[entry.actionPath, default: 0] += 1
      if effectSteps.contains(entry.step) { pathOfStep[entry.step] = entry.actionPath }
      return true
    }
    var effectsByPath: [String: Int] = [:]
    for effect in effects {
      let path = effect.startedByStep == 0 ? "" : pathOfStep[effect.startedByStep] ?? ""
      effectsByPath[path, default: 0] += 1
    }
    let counted = count(root, inherited: nil, stepsByPath, effectsByPath)
    if context.arguments.flag("--json") {
      var json = JSONOutput()
      write(root, counted, into: &json)
      out.write(json.text + "\n")
      return
    }
    TreeRenderer(width: context.terminal.width, style: context.style).render(counted, into: &out)
  }

  static func count(
    _ node: ReducerTreeNode, inherited: String?, _ steps: [String: Int], _ effects: [String: Int]
  ) -> TreeRenderer.Node {
    let prefix = node.actionPrefix ?? inherited
    func handles(_ path: String) -> Bool {
      guard let prefix, !prefix.isEmpty else { return true }
      return PathQuery.isPrefix(prefix, of: path)
    }
    let stepCount = steps.reduce(0) { handles($1.key) ? $0 + $1.value : $0 }
    let effectCount = effects.reduce(0) { handles($1.key) ? $0 + $1.value : $0 }
    return TreeRenderer.Node(
      title: title(node), steps: stepCount, effects: effectCount,
      children: node.children.map { count($0, inherited: prefix, steps, effects) })
  }

  static func title(_ node: ReducerTreeNode) -> String {
    var title = EscapedText.plain(node.kind)
    if let path = node.statePath, !path.isEmpty { title += "(" + EscapedText.plain(path) + ")" }
    if !node.typeName.isEmpty { title += " " + EscapedText.plain(node.typeName) }
    return title
  }

  static func write(
    _ node: ReducerTreeNode, _ counted: TreeRenderer.Node, into json: inout JSONOutput
  ) {
    json.object { j in
      j.field("kind") { $0.string(node.kind) }
      j.field("typeName") { $0.string(node.typeName) }
      j.field("statePath") { j in j.optional(node.statePath) { $0.string($1) } }
      j.field("actionPrefix") { j in j.optional(node.actionPrefix) { $0.string($1) } }
      j.field("steps") { $0.int(counted.steps) }
      j.field("effects") { $0.int(counted.effects) }
      j.field("children") { j in
        j.array { j in
          for (child, countedChild) in zip(node.children, counted.children) {
            write(child, countedChild, into: &j)
          }
        }
      }
    }
  }
}

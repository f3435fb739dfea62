/// Draws the reducer tree with box-drawing characters, each node with the steps it handled and
/// the effects it started.
///
/// ```text
/// Recorder AppFeature                              12 steps  3 effects
/// └─ CombineReducers AppFeature                    12 steps  3 effects
///    ├─ Scope(counter) CounterFeature               7 steps  2 effects
///    │  └─ Reduce CounterFeature                    7 steps  2 effects
///    └─ Reduce AppFeature                          12 steps  3 effects
/// ```
struct TreeRenderer {
  /// A node with its counts, ready to draw.
  struct Node: Equatable {
    var title: String
    var steps: Int
    var effects: Int
    var children: [Node]
  }

  var width: Int
  var style = Style(colour: false)

  func render(_ root: Node, into out: inout some TextOutputStream) {
    var rows: [(String, Node)] = []
    collect(root, prefix: "", childPrefix: "", into: &rows)
    let steps = rows.map {
      NumberText.grouped($0.1.steps) + ($0.1.steps == 1 ? " step" : " steps")
    }
    let effects = rows.map {
      NumberText.grouped($0.1.effects) + ($0.1.effects == 1 ? " effect" : " effects")
    }
    let stepsWidth = steps.map(\.count).max() ?? 0
    let effectsWidth = effects.map(\.count).max() ?? 0
    let titleWidth = min(
      rows.map { $0.0.count }.max() ?? 0, max(10, width - stepsWidth - effectsWidth - 4))
    for (index, (title, _)) in rows.enumerated() {
      var shown = title
      if shown.count > titleWidth { shown = String(shown.prefix(titleWidth - 1)) + "…" }
      let counts =
        String(repeating: " ", count: stepsWidth - steps[index].count) + steps[index]
        + "  " + String(repeating: " ", count: effectsWidth - effects[index].count)
        + effects[index]
      let gap = String(repeating: " ", count: titleWidth - shown.count + 2)
      out.write(shown + gap + style.dim(counts) + "\n")
    }
  }

  private func collect(
    _ node: Node, prefix: String, childPrefix: String, into rows: inout [(String, Node)]
  ) {
    rows.append((prefix + node.title, node))
    for (offset, child) in node.children.enumerated() {
      let last = offset == node.children.count - 1
      collect(
        child, prefix: childPrefix + (last ? "└─ " : "├─ "),
        childPrefix: childPrefix + (last ? "   " : "│  "), into: &rows)
    }
  }
}

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
    let countTexts = rows.map { countText(of: $0.1) }
    let countWidth = countTexts.map(\.count).max() ?? 0
    let titleWidth = min(
      rows.map { $0.0.count }.max() ?? 0, max(10, width - countWidth - 2))
    for ((title, _), count) in zip(rows, countTexts) {
      var shown = title
      if shown.count > titleWidth { shown = String(shown.prefix(titleWidth - 1)) + "…" }
      let gap = String(repeating: " ", count: titleWidth - shown.count + 2)
      let right = String(repeating: " ", count: countWidth - count.count) + count
      out.write(shown + gap + style.dim(right) + "\n")
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

  private func countText(of node: Node) -> String {
    let steps = NumberText.grouped(node.steps) + (node.steps == 1 ? " step " : " steps")
    let effects = NumberText.grouped(node.effects) + (node.effects == 1 ? " effect " : " effects")
    return String(repeating: " ", count: max(0, 11 - steps.count)) + steps + "  "
      + String(repeating: " ", count: max(0, 13 - effects.count)) + effects
  }
}

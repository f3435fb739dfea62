import TraceKit

extension ReducerTreeNode {
  /// The tree as the tests compare it: one line a node, two spaces per level, with its type,
  /// state path and action prefix.
  ///
  /// ```swift
  /// tree.lines
  /// // ["Recorder App", "  reducer App", "    forEach Row state=rows action=rows", …]
  /// ```
  public var lines: [String] {
    var lines: [String] = []
    func render(_ node: ReducerTreeNode, depth: Int) {
      var line = String(repeating: "  ", count: depth) + node.kind
      if !node.typeName.isEmpty { line += " " + node.typeName }
      if let state = node.statePath { line += " state=" + state }
      if let action = node.actionPrefix { line += " action=" + action }
      lines.append(line)
      for child in node.children { render(child, depth: depth + 1) }
    }
    render(self, depth: 0)
    return lines
  }
}

import TraceKit

/// A state diff as indented lines: `path: old → new`, `+ path: value`, `- path: old`.
///
/// ```swift
/// ChangeLines.text([.remove(TracePath([.key("results"), .index(1)]))], from: old, indent: 2)
/// // "  - results[1]: \"ab2\""
/// ```
enum ChangeLines {
  static func text(_ changes: [TraceChange], from recorded: TraceValue, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    return changes.map { change in
      switch change {
      case .set(let path, let value):
        let old = recorded.value(at: path).map { "\($0)" } ?? "(absent)"
        return margin + "\(path.description.isEmpty ? "(root)" : path.description): "
          + "\(old) → \(value)"
      case .insert(let path, let value):
        return margin + "+ \(path): \(value)"
      case .remove(let path):
        let old = recorded.value(at: path).map { "\($0)" } ?? "(absent)"
        return margin + "- \(path): \(old)"
      }
    }.joined(separator: "\n")
  }
}

import TraceKit

/// Writes a `TracePath` the way a person types it: `todos[id: 3].title`, `path[2]`.
///
/// ```swift
/// PathText.describe(TracePath([.key("todos"), .id(.int(3)), .key("title")]))
/// // todos[id: 3].title
/// ```
enum PathText {
  static func describe(_ path: TracePath) -> String {
    var out = ""
    for component in path.components {
      switch component {
      case .key(let key):
        if !out.isEmpty { out += "." }
        out += EscapedText.plain(key)
      case .index(let index):
        out += "[\(index)]"
      case .id(let id):
        out += "[id: " + ValueDumper.scalarText(id) + "]"
      }
    }
    return out
  }
}

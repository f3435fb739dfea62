import TraceKit

/// A `--path` argument: parsed once, compared component by component with the changed paths
/// of the index, and used to pick a part of a state.
///
/// ```swift
/// let query = try PathQuery("todos", command: "log")
/// query.touches("todos[id: 3].title")  // true: a change inside todos
/// query.touches("todosCount")          // false: another field
/// ```
struct PathQuery {
  var path: TracePath
  var text: String
  /// The canonical text and its components' texts, for cheap comparisons with stored paths.
  private var canonical: String

  init(_ text: String, command: String) throws(InspectorError) {
    do {
      path = try TracePath(parsing: text)
    } catch {
      throw .usage(error.description, where: command + " --path")
    }
    self.text = text
    canonical = path.components.isEmpty ? "" : path.description
  }

  /// Whether a change at the stored path `changed` touches this path: it is inside it (this
  /// path is a prefix) or it encloses it (replacing a parent replaces this path too).
  func touches(_ changed: String) -> Bool {
    let changed = changed == "." ? "" : changed
    return Self.isPrefix(canonical, of: changed) || Self.isPrefix(changed, of: canonical)
  }

  /// Prefix on whole components: `todos` is a prefix of `todos.x` and `todos[2]`, not of
  /// `todosCount`.
  static func isPrefix(_ prefix: String, of path: String) -> Bool {
    if prefix.isEmpty { return true }
    guard path.hasPrefix(prefix) else { return false }
    if path.utf8.count == prefix.utf8.count { return true }
    let next = path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: prefix.utf8.count)]
    return next == UInt8(ascii: ".") || next == UInt8(ascii: "[")
  }

  /// The part of `state` at this path, or an error naming the step.
  func select(in state: TraceValue, context: CommandContext, step: Int) throws(InspectorError)
    -> TraceValue
  {
    guard let value = state.value(at: path) else {
      throw .input("no value at path '\(text)'", where: context.location(step: step))
    }
    return value
  }
}

import TraceValues

extension SwiftTypeTable {
  /// The pattern of a recorded path in `entries` (the state's or the action's): each element
  /// `[]`, and a key below a dictionary `[]` too (the dictionary's keys are its fields in a
  /// trace).
  ///
  /// ```swift
  /// SwiftTypeTable.pattern(of: "todos[id: 3].isComplete", in: table.state)
  /// // "todos[].isComplete"
  /// SwiftTypeTable.pattern(of: "scores.alice", in: table.state)  // "scores[]"
  /// ```
  public static func pattern(of path: TracePath, in entries: [String: SwiftTypeEntry])
    -> String
  {
    var text = ""
    for component in path.components {
      switch component {
      case .key where entries[text]?.kind == .dictionary: text += "[]"
      case .key(let name): text = join(text, name)
      case .index, .id: text += "[]"
      }
    }
    return text
  }

  /// The pattern of field `key` below `pattern`: `todos`, `todos[].title`.
  public static func join(_ pattern: String, _ key: String) -> String {
    pattern.isEmpty ? key : pattern + "." + key
  }

  /// The pattern of an enum case's associated value `key` (one of `fieldCount`): an only
  /// unlabelled value (`_0`) is entered directly, as TraceKit's paths enter it.
  ///
  /// ```swift
  /// SwiftTypeTable.casePattern("search", case: "loaded", field: "_0", fieldCount: 1)
  /// // "search.loaded"
  /// ```
  public static func casePattern(
    _ pattern: String, case name: String, field key: String, fieldCount: Int
  ) -> String {
    let inner = join(pattern, name)
    return fieldCount == 1 && key == "_0" ? inner : join(inner, key)
  }

  /// A raw-representable enum's raw value as `SwiftTypeEntry.rawValues` keys it: `active`,
  /// `3`; nil for a value no raw value is recorded as.
  public static func rawKey(_ value: TraceValue) -> String? {
    switch value {
    case .string(let text): text
    case .int(let number): String(number)
    case .uint(let number): String(number)
    default: nil
    }
  }
}

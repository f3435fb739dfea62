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
      case .key(let name): text += text.isEmpty ? name : "." + name
      case .index, .id: text += "[]"
      }
    }
    return text
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

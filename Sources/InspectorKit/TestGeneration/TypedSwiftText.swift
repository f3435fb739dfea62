import Foundation
import TraceKit

/// Recorded values and changes written as plain Swift from the trace's `SwiftTypeTable`:
/// `$0.todos[id: UUID(uuidString: "…")!]?.isComplete = true`, `$0.filter = .active`,
/// `.todos(.element(id: UUID(uuidString: "…")!, action: .toggle))`.
///
/// What the table cannot make Swift is written as a recorded literal (`.recorded(…)`, decoded
/// by the type's `Decodable`) and remembered in `decoded`, so the test says which and why:
/// a struct (the trace cannot tell which initializer it has: an `init` of its own hides the
/// memberwise one), a class or an unknown type.
///
/// ```swift
/// var text = TypedSwiftText(state: table.state, action: table.action)
/// text.statement(.set("count", .int(-1)))   // "$0.count = -1"
/// text.action(.enumCase("filterChanged", [TraceField("_0", .string("active"))]))
/// // ".filterChanged(.active)"
/// ```
struct TypedSwiftText {
  let state: [String: SwiftTypeEntry]
  let actions: [String: SwiftTypeEntry]
  /// The types written as recorded JSON, with why.
  private(set) var decoded: [String: String] = [:]
  /// Whether a change was set through `recorded(set:)` because its path enters an enum case.
  private(set) var setThroughCase = false
  /// Whether a change was set through `recorded(set:)` because the table does not describe
  /// its path.
  private(set) var setAtUnknownPath = false

  init(state: [String: SwiftTypeEntry], action: [String: SwiftTypeEntry]) {
    self.state = state
    self.actions = action
  }

  /// Notes that the value at `pattern` of the state is written as recorded JSON (the initial
  /// state).
  mutating func noteRecorded(statePattern pattern: String) {
    if let entry = state[pattern] { _ = recorded(.null, entry) }
  }

  /// A step's action, on lines of at most `width` columns where it can be.
  mutating func action(_ value: TraceValue, width: Int) -> String {
    guard actions[""] != nil else { return SwiftValueText.expression(value, width: width) }
    return self.value(value, at: "", in: actions, width: width)
  }

  /// One recorded change as a Swift statement, or nil when its path cannot be written as one
  /// (the root, a path through an enum case or a type the table does not know).
  mutating func statement(_ change: TraceChange) -> String? {
    let wasThroughCase = setThroughCase
    setThroughCase = false
    defer { setThroughCase = setThroughCase || wasThroughCase }
    let statement = plainStatement(change)
    if statement == nil, !setThroughCase, !change.path.components.isEmpty {
      setAtUnknownPath = true
    }
    return statement
  }

  private mutating func plainStatement(_ change: TraceChange) -> String? {
    switch change {
    case .set(let path, let value):
      guard !path.components.isEmpty, let (target, pattern) = lvalue(path.components) else {
        return nil
      }
      return target + " = " + self.value(value, at: pattern, in: state)
    case .insert(let path, let value):
      guard let last = path.components.last,
        let (container, pattern) = lvalue(path.components.dropLast())
      else { return nil }
      switch (state[pattern]?.kind, last) {
      case (.array, .index(let index)), (.identifiedArray, .index(let index)):
        let element = self.value(value, at: pattern + "[]", in: state)
        return container + ".insert(\(element), at: \(index))"
      case (.dictionary, .key(let key)):
        guard let keyText = dictionaryKey(key, of: state[pattern]) else { return nil }
        return container + "[\(keyText)] = " + self.value(value, at: pattern + "[]", in: state)
      default:
        return nil
      }
    case .remove(let path):
      guard let last = path.components.last,
        let (container, pattern) = lvalue(path.components.dropLast())
      else { return nil }
      switch (state[pattern]?.kind, last) {
      case (.array, .index(let index)), (.identifiedArray, .index(let index)):
        return container + ".remove(at: \(index))"
      case (.identifiedArray, .id(let id)):
        return container + ".remove(id: \(self.value(id, at: pattern + "[].id", in: state)))"
      case (.dictionary, .key(let key)):
        guard let keyText = dictionaryKey(key, of: state[pattern]) else { return nil }
        return container + "[\(keyText)] = nil"
      default:
        return nil
      }
    }
  }

  /// `$0.todos[id: …]?.title` and the pattern it reaches, or nil.
  private mutating func lvalue(_ components: some Collection<TracePath.Component>)
    -> (String, String)?
  {
    var text = "$0"
    var pattern = ""
    // A subscript by id or key gives an optional: what follows is chained with `?`.
    var chained = false
    for component in components {
      guard let entry = state[pattern] else { return nil }
      let chain = entry.optional == true || chained ? "?" : ""
      switch (entry.kind, component) {
      case (.struct, .key(let name)) where SwiftValueText.isIdentifier(name):
        text += chain + "." + SwiftValueText.identifier(name)
        pattern = SwiftTypeTable.join(pattern, name)
        chained = false
      case (.identifiedArray, .id(let id)):
        text += chain + "[id: " + value(id, at: pattern + "[].id", in: state) + "]"
        pattern += "[]"
        chained = true
      case (.array, .index(let index)), (.identifiedArray, .index(let index)):
        text += chain + "[\(index)]"
        pattern += "[]"
        chained = false
      case (.dictionary, .key(let key)):
        guard let keyText = dictionaryKey(key, of: entry) else { return nil }
        text += chain + "[\(keyText)]"
        pattern += "[]"
        chained = true
      case (.enum, _):
        // This architecture's enums have no writable case properties to assign through.
        setThroughCase = true
        return nil
      default:
        return nil
      }
    }
    return (text, pattern)
  }

  /// The value at `pattern` as Swift, or as a recorded literal where the table cannot say.
  mutating func value(
    _ value: TraceValue, at pattern: String, in entries: [String: SwiftTypeEntry],
    width: Int = SwiftValueText.jsonWidth
  ) -> String {
    guard let entry = entries[pattern] else { return SwiftValueText.expression(value) }
    if value == .null, entry.optional == true { return "nil" }
    if case .enumCase("Optional.some", let fields) = value, fields.count == 1 {
      return self.value(fields[0].value, at: pattern, in: entries, width: width)
    }
    switch (entry.kind, value) {
    case (.string, .string(let text)): return EscapedText.quoted(text)
    case (.bool, .bool(let flag)): return flag ? "true" : "false"
    case (.integer, .int(let number)): return String(number)
    case (.integer, .uint(let number)): return String(number)
    case (.floatingPoint, .int(let number)): return String(number)
    case (.floatingPoint, .double(let number)) where number.isFinite: return "\(number)"
    case (.uuid, .string(let text)) where UUID(uuidString: text) != nil:
      return "UUID(uuidString: \(EscapedText.quoted(text)))!"
    case (.date, .string(let text)) where DateText.seconds(parsing: text) != nil:
      return "Date(timeIntervalSinceReferenceDate: \(DateText.seconds(parsing: text)!))"
    case (.date, .double(let seconds)) where seconds.isFinite:
      return "Date(timeIntervalSinceReferenceDate: \(seconds))"
    case (.url, .string(let text)) where URL(string: text)?.absoluteString == text:
      return "URL(string: \(EscapedText.quoted(text)))!"
    case (.enum, .enumCase(let name, let fields)) where SwiftValueText.isIdentifier(name):
      guard !fields.isEmpty else { return "." + label(name) }
      func arguments(width: Int) -> [String] {
        fields.map { field in
          let fieldPattern = SwiftTypeTable.casePattern(
            pattern, case: name, field: field.key, fieldCount: fields.count)
          return (SwiftValueText.isPositional(field.key) ? "" : label(field.key) + ": ")
            + self.value(field.value, at: fieldPattern, in: entries, width: width)
        }
      }
      let line = "." + label(name) + "(" + arguments(width: width).joined(separator: ", ") + ")"
      let longest = line.split(separator: "\n").map(\.count).max() ?? 0
      guard longest > width else { return line }
      // Too long for one line: one associated value a line, each as short as it can be.
      return "." + label(name) + "(\n"
        + arguments(width: width - 2).map { SwiftValueText.indented($0, by: "  ") }
        .joined(separator: ",\n") + ")"
    case (.enum, _):
      if let text = SwiftTypeTable.rawKey(value), let name = entry.rawValues?[text],
        SwiftValueText.isIdentifier(name)
      {
        return "." + label(name)
      }
    case (.array, .array(let items)), (.set, .array(let items)),
      (.identifiedArray, .array(let items)):
      // An element that cannot be Swift has said why: the whole is recorded.
      let before = decoded
      let texts = items.map { self.value($0, at: pattern + "[]", in: entries) }
      guard decoded == before else { return ".recorded(" + SwiftValueText.literal(value) + ")" }
      return Self.list(texts)
    case (.dictionary, .object(let fields)):
      if fields.isEmpty { return "[:]" }
      let before = decoded
      let pairs = fields.compactMap { field in
        dictionaryKey(field.key, of: entry).map {
          $0 + ": " + self.value(field.value, at: pattern + "[]", in: entries)
        }
      }
      if pairs.count == fields.count, decoded == before { return Self.list(pairs) }
      if decoded != before { return ".recorded(" + SwiftValueText.literal(value) + ")" }
    default:
      break
    }
    return recorded(value, entry)
  }

  /// The items in brackets: on one line, or one a line when that is too long.
  private static func list(_ items: [String]) -> String {
    let line = "[" + items.joined(separator: ", ") + "]"
    guard line.count > SwiftValueText.jsonWidth, items.count > 1 else { return line }
    return "[\n" + items.map { SwiftValueText.indented($0, by: "  ") }
      .joined(separator: ",\n") + ",\n]"
  }

  private mutating func recorded(_ value: TraceValue, _ entry: SwiftTypeEntry) -> String {
    let reason =
      switch entry.kind {
      case .struct:
        "structs, whose initializer the trace cannot name: an init of their own hides the "
          + "memberwise one"
      case .identifiedArray, .array, .set, .dictionary:
        "collections whose keys cannot be written as Swift"
      case .other: "types the recorder could not look into"
      case .enum: "enum cases the recorder never saw"
      default: "values their type cannot take as a literal"
      }
    decoded[entry.type] = reason
    return ".recorded(" + SwiftValueText.literal(value) + ")"
  }

  /// A dictionary key as Swift: a string, or a number for integer keys.
  private func dictionaryKey(_ key: String, of entry: SwiftTypeEntry?) -> String? {
    switch entry?.keyType {
    case "Swift.String": EscapedText.quoted(key)
    case "Swift.Int", "Swift.Int64", "Swift.Int32", "Swift.UInt", "Swift.UInt64":
      Int64(key) != nil || UInt64(key) != nil ? key : nil
    default: nil
    }
  }

  private func label(_ name: String) -> String { SwiftValueText.identifier(name) }
}

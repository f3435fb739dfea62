extension TraceChange: CustomStringConvertible {
  /// One line: the operation, the path and the value.
  ///
  /// ```swift
  /// print(TraceChange.set(try TracePath(parsing: "todos[id: 3].title"), .string("b")))
  /// // set todos[id: 3].title "b"
  /// ```
  public var description: String {
    switch self {
    case .set(let path, let value): "set \(path) \(value)"
    case .remove(let path): "remove \(path)"
    case .insert(let path, let value): "insert \(path) \(value)"
    }
  }

  /// The change as a JSON-ready value, one line of a JSON Lines diff.
  ///
  /// ```swift
  /// let change = TraceChange.set(try TracePath(parsing: "todos[id: 3].title"), .string("b"))
  /// print(change.jsonValue.jsonString)
  /// // {"op":"set","path":"todos[id: 3].title","value":"b"}
  /// print(TraceChange.remove(TracePath([.index(2)])).jsonValue.jsonString)
  /// // {"op":"remove","path":"[2]"}
  /// ```
  ///
  /// `op` is `set`, `remove` or `insert`; `path` is the path's text form (the root is `.`);
  /// `value` (for `set` and `insert`) is the value's JSON form.
  public var jsonValue: TraceValue {
    switch self {
    case .set(let path, let value):
      .object([
        TraceField("op", .string("set")), TraceField("path", .string(path.description)),
        TraceField("value", value),
      ])
    case .remove(let path):
      .object([TraceField("op", .string("remove")), TraceField("path", .string(path.description))])
    case .insert(let path, let value):
      .object([
        TraceField("op", .string("insert")), TraceField("path", .string(path.description)),
        TraceField("value", value),
      ])
    }
  }

  /// Reads a change from the shape `jsonValue` writes.
  ///
  /// - Throws: `TraceChangeFormatError` naming the missing or wrong member, or the path error.
  public init(jsonValue: TraceValue) throws(TraceChangeFormatError) {
    guard case .object(let fields) = jsonValue else {
      throw TraceChangeFormatError("expected an object, found \(jsonValue.kindDescription)")
    }
    func member(_ key: String) -> TraceValue? { fields.first { $0.key == key }?.value }
    guard case .string(let op)? = member("op") else {
      throw TraceChangeFormatError("expected a string \"op\"")
    }
    guard case .string(let pathText)? = member("path") else {
      throw TraceChangeFormatError("expected a string \"path\"")
    }
    let path: TracePath
    do {
      path = try TracePath(parsing: pathText)
    } catch {
      throw TraceChangeFormatError("\(error)")
    }
    let allowed: Set<String> = op == "remove" ? ["op", "path"] : ["op", "path", "value"]
    if let extra = fields.first(where: { !allowed.contains($0.key) }) {
      throw TraceChangeFormatError("unexpected member \(TraceValue.string(extra.key).jsonString)")
    }
    // A reader that took the first of two and one that took the last would read two changes.
    for (index, field) in fields.enumerated()
    where fields[..<index].contains(where: { $0.key == field.key }) {
      throw TraceChangeFormatError(
        "member \(TraceValue.string(field.key).jsonString) appears twice")
    }
    switch op {
    case "set", "insert":
      guard let value = member("value") else {
        throw TraceChangeFormatError("expected a \"value\" for \(op)")
      }
      self = op == "set" ? .set(path, value) : .insert(path, value)
    case "remove":
      self = .remove(path)
    default:
      throw TraceChangeFormatError(
        "unknown op \(TraceValue.string(op).jsonString) (expected set, remove or insert)")
    }
  }
}

extension TraceValue {
  /// The value at `path`, or `nil` when the path leads nowhere.
  ///
  /// ```swift
  /// let state = try TraceValue(json: #"{"todos":[{"id":3,"title":"Buy milk"}]}"#)
  /// print(state.value(at: try TracePath(parsing: "todos[id: 3].title"))!)  // "Buy milk"
  /// ```
  ///
  /// A `.key` selects an object field (the first with that key) or, on an enum value, its case
  /// when the name matches: a case whose only associated value is unlabelled (`_0`) is entered
  /// directly, any other case gives its associated values as an object. `.index` selects an
  /// array element; `.id` the array element that is an object whose `id` field equals the
  /// value. A `.reflected` marker is looked through.
  public func value(at path: TracePath) -> TraceValue? {
    var current = self
    for component in path.components {
      guard let next = current.child(component) else { return nil }
      current = next
    }
    return current
  }

  func child(_ component: TracePath.Component) -> TraceValue? {
    switch (self, component) {
    case (.reflected(_, let inner), _):
      return inner.child(component)
    case (.object(let fields), .key(let key)):
      return fields.first { $0.key == key }?.value
    case (.enumCase(let name, let fields), .key(let key)) where name == key:
      return Self.enumPayload(fields)
    case (.array(let elements), .index(let index)):
      return elements.indices.contains(index) ? elements[index] : nil
    case (.array(let elements), .id(let id)):
      return elements.first { $0.identifier == id }
    default:
      return nil
    }
  }

  /// What a path sees when it enters an enum case.
  static func enumPayload(_ fields: [TraceField]) -> TraceValue {
    if fields.count == 1, fields[0].key == "_0" { return fields[0].value }
    return .object(fields)
  }

  /// The `id` field of an object, which arrays of identified elements are matched by.
  var identifier: TraceValue? {
    guard case .object(let fields) = self else { return nil }
    for field in fields where field.key == "id" { return field.value }
    return nil
  }
}

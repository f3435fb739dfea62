/// Applies one `TraceChange` in place. Every container on the path is moved out of its enum box
/// (see `TraceValue+Take.swift`) before it is mutated, so that it is uniquely referenced and
/// mutates without a copy; a `defer` puts it back whether the change succeeds or throws.
struct Patcher {
  let change: TraceChange
  let components: [TracePath.Component]

  init(change: TraceChange) {
    self.change = change
    self.components = change.path.components
  }

  var operation: String {
    switch change {
    case .set: "set"
    case .remove: "remove"
    case .insert: "insert"
    }
  }

  /// The value of a `set` (an enum case can only be set, never removed or inserted into).
  var newValue: TraceValue? {
    if case .set(_, let value) = change { return value }
    return nil
  }

  func failure(_ reason: String) -> TracePatchError {
    TracePatchError(operation: operation, path: change.path, reason: reason)
  }

  func prefix(_ depth: Int) -> String {
    depth == 0 ? "the root" : TracePath(Array(components[..<depth])).description
  }

  /// Applies `changes` in order (`TraceDiff.apply`).
  static func apply(
    _ changes: [TraceChange], to value: inout TraceValue
  ) throws(TracePatchError) {
    for index in changes.indices {
      guard !setsRootField(changes[index], of: &value) else { continue }
      var patcher = Patcher(change: changes[index])
      try patcher.apply(to: &value)
    }
  }

  /// Applies `change` when it sets a field that the root object has, the change most steps
  /// of a feature make (a replay applies one per step): the field is found and replaced
  /// without a patcher or a walk. False, with `value` as it was, for any other change.
  @inline(__always)
  private static func setsRootField(_ change: TraceChange, of value: inout TraceValue) -> Bool {
    guard case .set(let path, let newValue) = change, path.components.count == 1,
      case .key(let key) = path.components[0], case .object = value
    else { return false }
    // A new key is appended by `applyLast`, like any `set` of a missing field.
    return TraceDiff.setField(key, to: newValue, of: &value)
  }

  mutating func apply(to value: inout TraceValue) throws(TracePatchError) {
    guard !components.isEmpty else {
      guard case .set(_, let newValue) = change else {
        throw failure("the root can only be set")
      }
      value = newValue
      return
    }
    try descend(into: &value, depth: 0)
  }

  /// Walks to the container that holds the last component, then changes it.
  private func descend(into value: inout TraceValue, depth: Int) throws(TracePatchError) {
    let isLast = depth == components.count - 1
    let component = components[depth]
    switch value.kind {
    case .reflected:
      var (typeName, inner) = value.takeReflected()
      defer { value = .reflected(typeName: typeName, inner) }
      try descend(into: &inner, depth: depth)
    case .object:
      guard case .key(let key) = component else {
        throw failure(mismatch(value, component, depth: depth))
      }
      var fields = value.takeObjectFields()
      defer { value = .object(fields) }
      if isLast {
        try applyLast(key: key, to: &fields, depth: depth)
      } else {
        guard let index = fields.firstIndex(where: { sameUTF8($0.key, key) }) else {
          throw failure("\(prefix(depth)) has no field \(TraceValue.string(key).jsonString)")
        }
        try descend(into: &fields[index].value, depth: depth + 1)
      }
    case .enumCase:
      guard case .key(let key) = component, let caseName = value.enumCaseName,
        sameUTF8(key, caseName)
      else {
        throw failure(mismatch(value, component, depth: depth))
      }
      if isLast, operation != "set" {
        throw failure("an enum case can only be set")
      }
      var (name, fields) = value.takeEnumCase()
      defer { value = .enumCase(name, fields) }
      if fields.count == 1 && fields[0].key == "_0" {
        // The only unlabelled associated value is entered directly.
        if isLast {
          fields[0].value = newValue ?? .null
        } else {
          try descend(into: &fields[0].value, depth: depth + 1)
        }
      } else if isLast {
        guard case .object(let newFields)? = newValue else {
          throw failure("the associated values of case \(name) must be set as an object")
        }
        fields = newFields
      } else {
        try descendIntoFields(&fields, depth: depth + 1)
      }
    case .array:
      var elements = value.takeArray()
      defer { value = .array(elements) }
      if isLast {
        try applyLast(component, to: &elements, depth: depth)
      } else {
        let index = try elementIndex(component, in: elements, depth: depth)
        try descend(into: &elements[index], depth: depth + 1)
      }
    case .scalar:
      throw failure(mismatch(value, component, depth: depth))
    }
  }

  /// The associated values of an enum case with labels, entered like an object's fields.
  private func descendIntoFields(
    _ fields: inout [TraceField], depth: Int
  ) throws(TracePatchError) {
    guard case .key(let key) = components[depth] else {
      throw failure("\(prefix(depth)) is an enum case's associated values: expected a key")
    }
    guard let index = fields.firstIndex(where: { sameUTF8($0.key, key) }) else {
      throw failure("\(prefix(depth)) has no field \(TraceValue.string(key).jsonString)")
    }
    if depth == components.count - 1 {
      guard case .set(_, let newValue) = change else {
        throw failure("the fields of an enum case can only be set")
      }
      fields[index].value = newValue
    } else {
      try descend(into: &fields[index].value, depth: depth + 1)
    }
  }

  private func applyLast(
    key: String, to fields: inout [TraceField], depth: Int
  ) throws(TracePatchError) {
    let index = fields.firstIndex { sameUTF8($0.key, key) }
    switch change {
    case .set(_, let newValue):
      if let index {
        fields[index].value = newValue
      } else {
        fields.append(TraceField(key, newValue))
      }
    case .remove:
      guard let index else {
        throw failure("\(prefix(depth)) has no field \(TraceValue.string(key).jsonString)")
      }
      fields.remove(at: index)
    case .insert:
      throw failure("insert needs an array index as the last component")
    }
  }

  private func applyLast(
    _ component: TracePath.Component, to elements: inout [TraceValue], depth: Int
  ) throws(TracePatchError) {
    if case .insert(_, let newValue) = change {
      guard case .index(let index) = component else {
        throw failure("insert needs an array index as the last component")
      }
      guard index >= 0 && index <= elements.count else {
        throw failure(outOfRange(index, count: elements.count, depth: depth))
      }
      elements.insert(newValue, at: index)
      return
    }
    let index = try elementIndex(component, in: elements, depth: depth)
    if case .set(_, let newValue) = change {
      elements[index] = newValue
    } else {
      elements.remove(at: index)
    }
  }

  private func elementIndex(
    _ component: TracePath.Component, in elements: [TraceValue], depth: Int
  ) throws(TracePatchError) -> Int {
    switch component {
    case .index(let index):
      guard elements.indices.contains(index) else {
        throw failure(outOfRange(index, count: elements.count, depth: depth))
      }
      return index
    case .id(let id):
      guard let index = elements.firstIndex(where: { $0.identifier == id }) else {
        throw failure("\(prefix(depth)) has no element with id \(id.jsonString)")
      }
      return index
    case .key:
      throw failure(mismatch(.array(elements), component, depth: depth))
    }
  }

  private func outOfRange(_ index: Int, count: Int, depth: Int) -> String {
    let location = depth == 0 ? "" : " at \(prefix(depth))"
    return "index \(index) is out of range for an array of \(count) elements\(location)"
  }

  private func mismatch(
    _ value: TraceValue, _ component: TracePath.Component, depth: Int
  ) -> String {
    let wanted: String
    switch component {
    case .key(let key): wanted = "an object or the enum case \(key)"
    case .index: wanted = "an array"
    case .id: wanted = "an array of identified objects"
    }
    return "expected \(wanted) at \(prefix(depth)), found \(value.kindDescription)"
  }
}

extension TraceValue {
  /// A short name of what the value is, for error messages.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a bool"
    case .int, .uint: "an integer"
    case .double: "a double"
    case .string: "a string"
    case .bytes: "bytes"
    case .array: "an array"
    case .object: "an object"
    case .enumCase(let name, _): "the enum case \(name)"
    case .reflected(let typeName, _): "a reflected \(typeName)"
    }
  }
}

// Provisional until the model branch lands `TraceChange.jsonValue`, `TraceChange(jsonValue:)`
// and `TraceDiff.apply(_:to:)`: this file is deleted then and `StepLine`'s two seams call those.

enum ProvisionalChangeCodec {
  struct Failure: Error { var reason: String }

  static func jsonValue(_ change: TraceChange) -> TraceValue {
    switch change {
    case .set(let path, let value):
      .object([TraceField("set", pathValue(path)), TraceField("value", value)])
    case .remove(let path):
      .object([TraceField("remove", pathValue(path))])
    case .insert(let path, let value):
      .object([TraceField("insert", pathValue(path)), TraceField("value", value)])
    }
  }

  static func change(_ value: TraceValue) throws(Failure) -> TraceChange {
    guard case .object(let fields) = value, let first = fields.first else {
      throw Failure(reason: "a change is not an object")
    }
    let path = try path(first.value)
    let operand = fields.count > 1 ? fields[1].value : nil
    switch (first.key, operand) {
    case ("set", let value?): return .set(path, value)
    case ("remove", nil): return .remove(path)
    case ("insert", let value?): return .insert(path, value)
    default: throw Failure(reason: "unknown change '\(first.key)'")
    }
  }

  private static func pathValue(_ path: TracePath) -> TraceValue {
    .array(
      path.components.map { component in
        switch component {
        case .key(let key): .string(key)
        case .index(let index): .int(Int64(index))
        case .id(let id): .object([TraceField("id", id)])
        }
      })
  }

  private static func path(_ value: TraceValue) throws(Failure) -> TracePath {
    guard case .array(let elements) = value else { throw Failure(reason: "path not an array") }
    var components: [TracePath.Component] = []
    for element in elements {
      switch element {
      case .string(let key): components.append(.key(key))
      case .int(let index):
        guard let index = Int(exactly: index) else { throw Failure(reason: "bad index") }
        components.append(.index(index))
      case .object(let fields) where fields.count == 1 && fields[0].key == "id":
        components.append(.id(fields[0].value))
      default: throw Failure(reason: "bad path component")
      }
    }
    return TracePath(components)
  }

  static func apply(_ changes: [TraceChange], to value: TraceValue) throws(Failure) -> TraceValue {
    var value = value
    for change in changes {
      switch change {
      case .set(let path, let new):
        try modify(&value, path.components[...]) { (target) throws(Failure) in target = new }
      case .remove(let path):
        guard let last = path.components.last else { throw Failure(reason: "remove root") }
        try modify(&value, path.components.dropLast()) { (parent) throws(Failure) in
          try remove(last, from: &parent)
        }
      case .insert(let path, let new):
        guard case .index(let index)? = path.components.last else {
          throw Failure(reason: "insert needs an index")
        }
        try modify(&value, path.components.dropLast()) { (parent) throws(Failure) in
          guard case .array(var elements) = parent, index >= 0, index <= elements.count else {
            throw Failure(reason: "insert outside an array")
          }
          elements.insert(new, at: index)
          parent = .array(elements)
        }
      }
    }
    return value
  }

  private static func remove(_ component: TracePath.Component, from parent: inout TraceValue)
    throws(Failure)
  {
    switch (component, parent) {
    case (.key(let key), .object(var fields)):
      guard let position = fields.firstIndex(where: { $0.key == key }) else {
        throw Failure(reason: "no key \(key)")
      }
      fields.remove(at: position)
      parent = .object(fields)
    case (.index(let index), .array(var elements)):
      guard elements.indices.contains(index) else { throw Failure(reason: "no index") }
      elements.remove(at: index)
      parent = .array(elements)
    case (.id(let id), .array(var elements)):
      guard let position = elements.firstIndex(where: { identity(of: $0) == id }) else {
        throw Failure(reason: "no id")
      }
      elements.remove(at: position)
      parent = .array(elements)
    default:
      throw Failure(reason: "path does not match the value")
    }
  }

  private static func identity(of value: TraceValue) -> TraceValue? {
    guard case .object(let fields) = value else { return nil }
    return fields.first(where: { $0.key == "id" })?.value
  }

  private static func modify(
    _ value: inout TraceValue, _ components: ArraySlice<TracePath.Component>,
    _ body: (inout TraceValue) throws(Failure) -> Void
  ) throws(Failure) {
    guard let first = components.first else { return try body(&value) }
    let rest = components.dropFirst()
    switch (first, value) {
    case (.key(let key), .object(var fields)):
      if let position = fields.firstIndex(where: { $0.key == key }) {
        try modify(&fields[position].value, rest, body)
      } else if rest.isEmpty {
        var new = TraceValue.null
        try body(&new)
        fields.append(TraceField(key, new))
      } else {
        throw Failure(reason: "no key \(key)")
      }
      value = .object(fields)
    case (.key(let key), .enumCase(let name, var fields)):
      if key == name {
        if fields.count == 1 && fields[0].key == "_0" {
          try modify(&fields[0].value, rest, body)
        } else {
          var inner = TraceValue.object(fields)
          try modify(&inner, rest, body)
          guard case .object(let updated) = inner else { throw Failure(reason: "enum") }
          fields = updated
        }
        value = .enumCase(name, fields)
      } else {
        throw Failure(reason: "enum case \(name) is not \(key)")
      }
    case (.index(let index), .array(var elements)):
      guard elements.indices.contains(index) else { throw Failure(reason: "no index") }
      try modify(&elements[index], rest, body)
      value = .array(elements)
    case (.id(let id), .array(var elements)):
      guard let position = elements.firstIndex(where: { identity(of: $0) == id }) else {
        throw Failure(reason: "no id")
      }
      try modify(&elements[position], rest, body)
      value = .array(elements)
    default:
      throw Failure(reason: "path does not match the value")
    }
  }
}

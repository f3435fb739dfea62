// Moving a container out of its enum box. `TraceValue` is an indirect enum: its payload sits in
// a heap box, so a bound copy of the payload shares storage with the box until the box dies.
// These helpers leave `.null` behind and return the payload; once they return (and their
// pattern-matching temporaries are gone, also in unoptimized builds) the caller holds the only
// reference and can mutate without a copy-on-write copy.

enum TraceValueKind {
  case scalar, array, object, enumCase, reflected
}

extension TraceValue {
  var kind: TraceValueKind {
    switch self {
    case .array: .array
    case .object: .object
    case .enumCase: .enumCase
    case .reflected: .reflected
    default: .scalar
    }
  }

  mutating func takeArray() -> [TraceValue] {
    guard case .array(let elements) = self else { return [] }
    self = .null
    return elements
  }

  mutating func takeObjectFields() -> [TraceField] {
    guard case .object(let fields) = self else { return [] }
    self = .null
    return fields
  }

  mutating func takeEnumCase() -> (name: String, fields: [TraceField]) {
    guard case .enumCase(let name, let fields) = self else { return ("", []) }
    self = .null
    return (name, fields)
  }

  mutating func takeReflected() -> (typeName: String, value: TraceValue) {
    guard case .reflected(let typeName, let inner) = self else { return ("", .null) }
    self = .null
    return (typeName, inner)
  }

  var enumCaseName: String? {
    if case .enumCase(let name, _) = self { return name }
    return nil
  }
}

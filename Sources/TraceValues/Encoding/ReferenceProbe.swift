/// Finds class instances in a value: the one thing a recorder cannot compare by the value's
/// bits (a class changed in place keeps them), whether or not the value's `encode(to:)` shows
/// them.
///
/// ```swift
/// final class Cache { var hits = 0 }
/// struct Model: Encodable { var name = "a"; let cache = Cache()
///   func encode(to encoder: Encoder) throws { … writes name and cache.hits … } }
/// ReferenceProbe.holdsReferences(Model())  // true
/// ReferenceProbe.holdsReferences([1, 2])    // false: elements are probed one by one
/// ```
///
/// It looks at one level: the value itself, or its stored properties (an enum's payload, a
/// tuple's elements, an optional's or a collection's first element inside them). Deeper
/// values the encoder meets are probed in turn. Collections and optionals at the top are left
/// to their elements. The encoder probes the first value of each type it meets, so an enum
/// whose other cases hold a class the encoder never writes is not seen; any `Encodable` class
/// is seen when it is encoded.
enum ReferenceProbe {
  static func holdsReferences(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .class:
      return true
    case .struct, .tuple, .enum:
      return mirror.children.contains { isReference($0.value, depth: 0) }
    default:
      return false
    }
  }

  private static func isReference(_ value: Any, depth: Int) -> Bool {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .class:
      return true
    case .optional, .collection, .set:
      guard depth < 4, let first = mirror.children.first else { return holdsClasses(value) }
      return isReference(first.value, depth: depth + 1)
    case .dictionary:
      guard depth < 4, let first = mirror.children.first else { return false }
      return Mirror(reflecting: first.value).children.contains {
        isReference($0.value, depth: depth + 1)
      }
    default:
      return false
    }
  }

  /// An empty optional, array or set of a class type.
  private static func holdsClasses(_ value: Any) -> Bool {
    if let optional = value as? any OptionalCoding {
      return type(of: optional).wrappedType is AnyClass
    }
    if let collection = value as? any ElementTypeReporting {
      return type(of: collection).elementType is AnyClass
    }
    return false
  }
}

/// The element type of a standard collection, for an empty one.
protocol ElementTypeReporting {
  static var elementType: Any.Type { get }
}

extension Array: ElementTypeReporting {
  static var elementType: Any.Type { Element.self }
}

extension ContiguousArray: ElementTypeReporting {
  static var elementType: Any.Type { Element.self }
}

extension Set: ElementTypeReporting {
  static var elementType: Any.Type { Element.self }
}

import ComposableCore
import Foundation
import TraceKit

/// One `Mirror` walk of a state or an action, adding what it meets to a type table's entries
/// (`SwiftTypeCollector` decides when to walk).
///
/// ```swift
/// var walk = SwiftTypeWalk(entries: [:])
/// walk.visit(Todos.State(…), pattern: "", depth: 0)
/// walk.entries["todos"]  // IdentifiedArray<UUID, Todo.State>, .identifiedArray, keyType UUID
/// ```
struct SwiftTypeWalk {
  var entries: [String: SwiftTypeEntry]
  /// Element patterns (`todos[]`) whose collections are walked whole: on the way to a value
  /// the table lacks, found beyond the first `elementsWalked` elements.
  var walkedWhole: Set<String> = []
  /// Element types a walk of one element tells all about: a collection of one is walked for
  /// its first element only.
  let fixed: FixedWalkTypes

  init(entries: [String: SwiftTypeEntry], fixed: FixedWalkTypes) {
    self.entries = entries
    self.fixed = fixed
  }

  /// A walk looks at this many elements of a collection (unless `walkedWhole` names it, or
  /// `fixed` holds its element type: then one): their type is the same, only enum cases,
  /// optionals, dynamic types and counts inside differ between them.
  static let elementsWalked = 64
  /// Deeper than this a value is not walked (a recursive type).
  static let maximumDepth = 48

  mutating func visit(_ value: Any, pattern: String, depth: Int, optional: Bool = false) {
    guard depth < Self.maximumDepth else { return }
    // An identified array is read without a mirror: its mirror copies all its elements. The
    // metatype is asked first: a cast of the value would see through an optional.
    let identified =
      type(of: value) is any ReflectedIdentifiedArray.Type
      ? value as? any ReflectedIdentifiedArray : nil
    lazy var mirror = Mirror(reflecting: value)
    if identified == nil, mirror.displayStyle == .optional {
      if let wrapped = mirror.children.first?.value {
        visit(wrapped, pattern: pattern, depth: depth, optional: true)
      } else if entries[pattern] == nil {
        entries[pattern] = SwiftTypeEntry(
          type: Self.wrappedName(type(of: value)), kind: .other, optional: true)
      }
      return
    }
    let name = StableTypeName.of(type(of: value))
    var entry = entries[pattern] ?? SwiftTypeEntry(type: name, kind: .other)
    if entry.kind == .other {
      entry.type = name
      entry.kind = identified == nil ? Self.kind(of: value, mirror) : .identifiedArray
    }
    if optional { entry.optional = true }
    defer { entries[pattern] = entry }
    let elements = pattern + "[]"
    let limit = walkedWhole.contains(elements) ? Int.max : Self.elementsWalked
    switch entry.kind {
    case .identifiedArray:
      guard let array = identified else { return }
      entry.keyType = array.idTypeName
      let count = fixed.contains(array.elementType) ? min(limit, 1) : limit
      for element in array.reflectedElements(count) {
        visit(element, pattern: elements, depth: depth + 1)
      }
    case .array, .set:
      var count = limit
      if let collection = value as? any ReflectedElementType,
        fixed.contains(collection.elementType)
      {
        count = min(limit, 1)
      }
      for child in mirror.children.prefix(count) {
        visit(child.value, pattern: elements, depth: depth + 1)
      }
    case .dictionary:
      for child in mirror.children.prefix(limit) {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { continue }
        entry.keyType = StableTypeName.of(type(of: pair[0].value))
        visit(pair[1].value, pattern: elements, depth: depth + 1)
      }
    case .struct:
      for child in mirror.children {
        guard let label = child.label else { continue }
        // `@PresentationState var sheet` is the field `_sheet`; the trace and Swift code
        // see `sheet`, its wrapped value.
        if label.hasPrefix("_"), let wrapper = child.value as? any PropertyWrapperReflecting {
          visit(
            wrapper.reflectedWrappedValue,
            pattern: SwiftTypeTable.join(pattern, String(label.dropFirst())),
            depth: depth + 1)
        } else {
          visit(child.value, pattern: SwiftTypeTable.join(pattern, label), depth: depth + 1)
        }
      }
    case .enum:
      visitCase(value, mirror, entry: &entry, pattern: pattern, depth: depth)
    default:
      break
    }
  }

  /// Notes an enum value's case (and raw value), and walks its associated values.
  private mutating func visitCase(
    _ value: Any, _ mirror: Mirror, entry: inout SwiftTypeEntry, pattern: String, depth: Int
  ) {
    let label: String
    if let payload = mirror.children.first, let caseName = payload.label {
      label = caseName
      let inner = SwiftTypeTable.join(pattern, caseName)
      let tuple = Mirror(reflecting: payload.value)
      if tuple.displayStyle == .tuple {
        for (position, field) in tuple.children.enumerated() {
          let fieldLabel = field.label.map { $0.hasPrefix(".") ? "_" + $0.dropFirst() : $0 }
          visit(
            field.value, pattern: SwiftTypeTable.join(inner, fieldLabel ?? "_\(position)"),
            depth: depth + 1)
        }
      } else {
        visit(payload.value, pattern: inner, depth: depth + 1)
      }
    } else if !(value is any CustomStringConvertible),
      !(value is any CustomDebugStringConvertible)
    {
      // A case without associated values prints as its name, unless the type prints itself.
      label = String(describing: value)
    } else {
      return
    }
    var cases = Set(entry.cases ?? [])
    cases.insert(label)
    entry.cases = cases.sorted()
    if let raw = value as? any RawRepresentable {
      var rawValues = entry.rawValues ?? [:]
      rawValues[String(describing: raw.rawValue)] = label
      entry.rawValues = rawValues
    }
  }

  private static func kind(of value: Any, _ mirror: Mirror) -> SwiftTypeEntry.Kind {
    switch value {
    case is UUID: return .uuid
    case is Date: return .date
    case is URL: return .url
    case is String: return .string
    case is Bool: return .bool
    case is any BinaryInteger: return .integer
    case is any BinaryFloatingPoint: return .floatingPoint
    case is any ReflectedIdentifiedArray: return .identifiedArray
    default: break
    }
    switch mirror.displayStyle {
    case .struct: return .struct
    case .enum: return .enum
    case .collection: return .array
    case .dictionary: return .dictionary
    case .set: return .set
    default: return .other
    }
  }

  /// `Todo` for `Optional<Todo>`.
  private static func wrappedName(_ type: Any.Type) -> String {
    let name = StableTypeName.of(type)
    let prefix = "Swift.Optional<"
    guard name.hasPrefix(prefix), name.hasSuffix(">") else { return name }
    return String(name.dropFirst(prefix.count).dropLast())
  }
}

/// A collection's static element type, as a walk asks it (its elements' dynamic types may
/// differ from it: an existential's).
protocol ReflectedElementType {
  var elementType: Any.Type { get }
}

extension Array: ReflectedElementType {
  var elementType: Any.Type { Element.self }
}

extension ContiguousArray: ReflectedElementType {
  var elementType: Any.Type { Element.self }
}

extension ArraySlice: ReflectedElementType {
  var elementType: Any.Type { Element.self }
}

extension Set: ReflectedElementType {
  var elementType: Any.Type { Element.self }
}

/// An `IdentifiedArray` as a walk sees it: its id type, its element type and its first
/// elements.
protocol ReflectedIdentifiedArray: ReflectedElementType {
  var idTypeName: String { get }
  func reflectedElements(_ limit: Int) -> [Any]
}

extension IdentifiedArray: ReflectedIdentifiedArray {
  var idTypeName: String { StableTypeName.of(ID.self) }
  var elementType: Any.Type { Element.self }

  func reflectedElements(_ limit: Int) -> [Any] {
    prefix(limit).map { $0 as Any }
  }
}

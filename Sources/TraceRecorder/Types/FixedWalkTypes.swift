import Foundation
@_spi(Reflection) import Swift
import TraceValues

/// The types whose `SwiftTypeWalk` adds the same entries whatever the value: a walk of one
/// element of a collection of such a type tells what a walk of every element would, so the
/// walk looks at one.
///
/// A type is fixed when it is a leaf the walk does not look into (`String`, `Bool`, the
/// standard integers and floating-point numbers, `UUID`, `Date`, `URL`), or a struct that
/// does not reflect itself (`CustomReflectable`) whose stored fields, read from the runtime's
/// field records (`_forEachField`), are all fixed and none is a property wrapper's storage
/// (a `_` label). Anything else may differ from one value to the next: an enum's case, an
/// optional's `nil`, an existential's or a class instance's dynamic type, a collection's
/// count, a mirror of its own. A type the runtime cannot describe is not fixed.
///
/// ```swift
/// struct Todo { var id: UUID; var title: String; var isComplete: Bool }
/// struct Row { var todo: Todo; var badge: Badge? }
/// let fixed = FixedWalkTypes()
/// fixed.contains(Todo.self)  // true
/// fixed.contains(Row.self)   // false: an optional
/// ```
final class FixedWalkTypes {
  // The writer's thread alone uses it: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var known: [ObjectIdentifier: Bool] = [:]

  /// Deeper than this a struct is not looked into (not fixed).
  static let maximumDepth = 16

  private static let leaves: Set<ObjectIdentifier> = [
    ObjectIdentifier(String.self), ObjectIdentifier(Bool.self),
    ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
    ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self),
    ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self),
    ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
    ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
    ObjectIdentifier(UUID.self), ObjectIdentifier(Date.self), ObjectIdentifier(URL.self),
  ]

  /// Whether a walk of any value of `type` adds the same entries.
  func contains(_ type: Any.Type) -> Bool {
    let id = ObjectIdentifier(type)
    if let fixed = known[id] { return fixed }
    let fixed = Self.isFixed(type, depth: 0)
    known[id] = fixed
    return fixed
  }

  private static func isFixed(_ type: Any.Type, depth: Int) -> Bool {
    if leaves.contains(ObjectIdentifier(type)) { return true }
    guard depth < maximumDepth, TypeMetadata.kind(of: type) == .struct,
      !(type is any CustomReflectable.Type)
    else { return false }
    var fixed = true
    let described = _forEachField(of: type, options: []) { name, _, fieldType, kind in
      guard name.pointee != CChar(UInt8(ascii: "_")), kind == .struct,
        isFixed(fieldType, depth: depth + 1)
      else {
        fixed = false
        return false
      }
      return true
    }
    return described && fixed
  }
}

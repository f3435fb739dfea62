@_spi(Reflection) import Swift
import TraceValues

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a type that hold its value: a struct's stored fields, without the padding
/// between them, which a copy of the value does not keep (`Equality.same` on whole bytes then
/// finds an unchanged struct changed, and the writer walks it again every step).
///
/// A struct is laid out by the runtime's field records (`_forEachField`), through nested
/// structs and the payload of an `Optional` (a struct's padding inside it included). Every
/// other field (a scalar, an enum, a class reference, an existential, a collection's buffer)
/// counts whole: its padding, if any, can only make two equal values differ, never two
/// different values equal. So does a type the runtime cannot lay out.
///
/// ```swift
/// struct Row { var done: Bool; var count: Int }   // 7 bytes of padding after `done`
/// SignificantBytes.of(Row.self).ranges  // [0..<1, 8..<16]
/// SignificantBytes.of(Int.self).ranges  // nil: all 8 bytes
/// ```
struct SignificantBytes: Sendable {
  /// The byte ranges to compare, in order; nil when they are all of the type's `size` bytes.
  let ranges: [Range<Int>]?

  static func of<T>(_ type: T.Type) -> SignificantBytes {
    let size = MemoryLayout<T>.size
    guard TypeMetadata.kind(of: type) == .struct else { return SignificantBytes(ranges: nil) }
    var ranges: [Range<Int>] = []
    guard Self.addFields(of: type, at: 0, to: &ranges) else {
      return SignificantBytes(ranges: nil)
    }
    if ranges == [0..<size] { return SignificantBytes(ranges: nil) }
    return SignificantBytes(ranges: ranges)
  }

  /// Whether `lhs` and `rhs` have the same bytes in these ranges.
  func same(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return same(at: left, right, count: lhs.count)
  }

  /// Whether the `count` bytes at `lhs` and at `rhs` are the same in these ranges. Inlined: a
  /// value whose every byte counts (about half the fields the writer compares on the composed
  /// app) is one `memcmp`, without a call.
  @inline(__always)
  func same(at lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
    guard let ranges else { return memcmp(lhs, rhs, count) == 0 }
    return Self.same(at: lhs, rhs, in: ranges)
  }

  private static func same(
    at lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, in ranges: [Range<Int>]
  ) -> Bool {
    for range in ranges
    where memcmp(lhs + range.lowerBound, rhs + range.lowerBound, range.count) != 0 {
      return false
    }
    return true
  }

  /// Adds the bytes of a struct's stored fields at `base`; false when the runtime has no
  /// field records for one of them (the caller then compares the whole value).
  private static func addFields(of type: Any.Type, at base: Int, to ranges: inout [Range<Int>])
    -> Bool
  {
    var fields: [(offset: Int, type: Any.Type, kind: _MetadataKind)] = []
    let described = _forEachField(of: type, options: []) { _, offset, type, kind in
      fields.append((offset, type, kind))
      return true
    }
    guard described else { return false }
    for field in fields {
      guard add(field.type, kind: field.kind, at: base + field.offset, to: &ranges) else {
        return false
      }
    }
    return true
  }

  /// Adds the bytes of one field of type `type` at `offset`.
  private static func add(
    _ type: Any.Type, kind: _MetadataKind, at offset: Int, to ranges: inout [Range<Int>]
  ) -> Bool {
    let size = Self.size(of: type)
    switch kind {
    case .struct:
      return addFields(of: type, at: offset, to: &ranges)
    case .optional:
      // The payload's bytes, then the tag bytes after it (none when `nil` is one of the
      // payload's invalid bit patterns, which lie in its fields' bytes, never in padding).
      guard let wrapped = (type as? any WalkedOptional.Type)?.wrappedType else {
        append(offset..<offset + size, to: &ranges)
        return true
      }
      let wrappedSize = Self.size(of: wrapped)
      guard add(wrapped, kind: TypeMetadata.kind(of: wrapped), at: offset, to: &ranges) else {
        return false
      }
      append(offset + wrappedSize..<offset + size, to: &ranges)
      return true
    default:
      append(offset..<offset + size, to: &ranges)
      return true
    }
  }

  /// Appends a range, merged with the previous one when they touch; empty ranges add nothing.
  private static func append(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
    guard !range.isEmpty else { return }
    if let last = ranges.last, last.upperBound == range.lowerBound {
      ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
    } else {
      ranges.append(range)
    }
  }

  private static func size(of type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return size(type)
  }
}

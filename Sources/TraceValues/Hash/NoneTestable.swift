/// `Optional`'s `nil` test on a value at an address, through its type alone, for the hasher's
/// optionals (`HashingEncoding.encodeValue`): a cast of the value to `any OptionalCoding`
/// would copy it into an existential (on the heap when larger than its buffer) and look the
/// conformance up at every optional encoded; the conformance of the type is looked up once a
/// place (`HashMemo.noneTest(of:)`).
///
/// ```swift
/// let none = (Int?).self as? any NoneTestable.Type
/// let value: Int? = nil
/// withUnsafeBytes(of: value) { none!.isNone(at: $0.baseAddress!) }  // true
/// ```
protocol NoneTestable {
  /// Whether the value of this type at `address` is `nil`.
  static func isNone(at address: UnsafeRawPointer) -> Bool
}

extension Optional: NoneTestable {
  static func isNone(at address: UnsafeRawPointer) -> Bool {
    address.assumingMemoryBound(to: Self.self).pointee == nil
  }
}

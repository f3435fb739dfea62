/// A Swift value kept for comparison with the next step's (see `FieldCache.swiftValue`).
/// Immutable; the writer's thread alone reads it (`Sendable` only for the shared `none`).
final class ValueBox<Value>: AnyValueBox, @unchecked Sendable {
  /// Never changed: a `var` only so that `holdsSameBits(at:)` reads it in place (`&value`).
  @exclusivity(unchecked) private(set) var value: Value

  /// `significant`: the bytes of `value` the next step compares (all of them by default).
  init(
    _ value: Value, inner: AnyValueBox? = nil,
    significant: SignificantBytes = SignificantBytes(ranges: nil)
  ) {
    self.value = value
    super.init(valueType: ObjectIdentifier(Value.self), inner: inner, significant: significant)
  }

  required init(
    copying value: UnsafeRawPointer, valueType: ObjectIdentifier, inner: AnyValueBox?,
    significant: SignificantBytes
  ) {
    self.value = value.assumingMemoryBound(to: Value.self).pointee
    super.init(copying: value, valueType: valueType, inner: inner, significant: significant)
  }

  /// Whether the `Value` at `other` has this box's bits in its significant bytes (as
  /// `Equality.same(_:_:in:)` compares them), both read in place.
  @inline(__always)
  func holdsSameBits(at other: UnsafePointer<Value>) -> Bool {
    same(&value, other)
  }

  /// An instance method, not a static one: `Self` would be looked up in the runtime's
  /// metadata cache (`Value` is read from this box's own metadata).
  private func same(_ lhs: UnsafePointer<Value>, _ rhs: UnsafePointer<Value>) -> Bool {
    significant.same(at: lhs, rhs, count: MemoryLayout<Value>.size)
  }
}

extension ValueBox where Value == Void {
  /// The box of fields compared by their encodings (scalars), shared.
  static let none = ValueBox(())
}

/// A Swift value kept for comparison with the next step's (see `FieldCache.swiftValue`).
/// Immutable; the writer's thread alone reads it (`Sendable` only for the shared `none`).
final class ValueBox<Value>: AnyValueBox, @unchecked Sendable {
  let value: Value

  /// `significant`: the bytes of `value` the next step compares (all of them by default).
  init(
    _ value: Value, inner: AnyValueBox? = nil,
    significant: SignificantBytes = SignificantBytes(ranges: nil)
  ) {
    self.value = value
    super.init(valueType: ObjectIdentifier(Value.self), inner: inner, significant: significant)
  }

  required init(copying value: UnsafeRawPointer, like prototype: AnyValueBox, inner: AnyValueBox?)
  {
    self.value = value.assumingMemoryBound(to: Value.self).pointee
    super.init(copying: value, like: prototype, inner: inner)
  }
}

extension ValueBox where Value == Void {
  /// The box of fields compared by their encodings (scalars), shared.
  static let none = ValueBox(())
}

/// A `ValueBox` of any type, which says what type it holds without a cast: the writer runs
/// unspecialized, and `as? ValueBox<T>` costs a metadata look-up and a dynamic cast per field
/// and step.
///
/// ```swift
/// let box: AnyValueBox = ValueBox(3)
/// box.holds(Int.self)            // true
/// box.holds(String.self)         // false
/// box.unsafeValue(as: Int.self)  // 3
/// box.holdsSameBits(as: 3)       // true
/// ```
///
/// No `T?` either: in unspecialized code an optional of a generic type is one more look-up.
class AnyValueBox: @unchecked Sendable {
  /// `ObjectIdentifier(Value.self)` of the `ValueBox<Value>` this is.
  final let valueType: ObjectIdentifier
  /// For a value encoded as the single value it wraps (an optional, `@PresentationState`, a
  /// hand-written wrapper; see `FieldWalker.wrapperField`): the box of that wrapped value,
  /// which the next step compares.
  final let inner: AnyValueBox?
  /// The bytes compared (the padding between a struct's fields left out).
  final let significant: SignificantBytes

  init(valueType: ObjectIdentifier, inner: AnyValueBox?, significant: SignificantBytes) {
    self.valueType = valueType
    self.inner = inner
    self.significant = significant
  }

  /// A box of the class this is called on for the value at `value` (of the type that class
  /// holds), whose type is `valueType`, comparing `significant`: see `sibling(holding:inner:)`
  /// and `WalkedTypes.box`, which make boxes through a box's class or a class kept per type.
  required init(
    copying value: UnsafeRawPointer, valueType: ObjectIdentifier, inner: AnyValueBox?,
    significant: SignificantBytes
  ) {
    self.valueType = valueType
    self.inner = inner
    self.significant = significant
  }

  /// A box of the same type as this one, comparing the same bytes, holding `value` (a value of
  /// the type this box holds: see `holds`). Made through this box's own class, so the generic
  /// `ValueBox<T>` is not looked up in the runtime's metadata cache (about 500 instructions
  /// a box in the writer's unspecialized code).
  @inline(__always)
  final func sibling<T>(holding value: T, inner: AnyValueBox?) -> AnyValueBox {
    withUnsafePointer(to: value) { sibling(copying: UnsafeRawPointer($0), inner: inner) }
  }

  /// `sibling(holding:inner:)` of the value at `value`, read where it is: a caller whose value
  /// is generic over more than its own type (an identified array's code, which knows its
  /// element type and id type) would look its type up to copy it out.
  @inline(__always)
  final func sibling(copying value: UnsafeRawPointer, inner: AnyValueBox?) -> AnyValueBox {
    type(of: self).init(
      copying: value, valueType: valueType, inner: inner, significant: significant)
  }

  /// Whether the boxed value is a `T`.
  @inline(__always)
  final func holds<T>(_ type: T.Type) -> Bool {
    valueType == ObjectIdentifier(type)
  }

  /// Whether the boxed value is a `T` with the same bits as `value` (`Equality.same`), in its
  /// significant bytes: a copy of a struct does not keep the padding between its fields.
  /// Both values are read where they are (see `ValueBox.holdsSameBits(at:)`): through
  /// `Equality.same`, each was reached through a closure of its own, about 60 instructions a
  /// field more in the writer's unspecialized code (callgrind).
  @inline(__always)
  final func holdsSameBits<T>(as value: T) -> Bool {
    guard holds(T.self) else { return false }
    let box = unsafeDowncast(self, to: ValueBox<T>.self)
    return withUnsafePointer(to: value) { box.holdsSameBits(at: $0) }
  }

  /// The boxed value, which must be a `T` (see `holds`).
  @inline(__always)
  final func unsafeValue<T>(as type: T.Type) -> T {
    unsafeDowncast(self, to: ValueBox<T>.self).value
  }
}

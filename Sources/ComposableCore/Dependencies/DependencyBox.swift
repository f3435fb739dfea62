/// A dependency value of any type, kept where values of many keys sit side by side (the
/// overrides of `DependencyValues`, the live and preview values of `PublishedValueCache`).
///
/// The key a box is stored under fixes its value's type, so a read is an unchecked class
/// downcast to `DependencyBox<Key.Value>` rather than a cast out of an existential (about
/// 5,300 instructions a read of an overridden `any Clock<Duration>`).
///
/// ```swift
/// let box: AnyDependencyBox = DependencyBox(42)
/// unsafeDowncast(box, to: DependencyBox<Int>.self).value  // 42
/// ```
@usableFromInline
class AnyDependencyBox: @unchecked Sendable {
  @usableFromInline init() {}
}

/// A dependency value; immutable, so a box is shared by every copy of the values holding it.
@usableFromInline
final class DependencyBox<Value>: AnyDependencyBox, @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}

/// Which bytes of a value of one type hold the value, for comparing two of them by their
/// bits (`HashMemo`): a struct's padding does not, and a copy of the value does not keep it.
///
/// ```swift
/// struct Fields: ValueBytes {  // the bytes of a `(Bool, Int)` struct, not its padding
///   func same(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
///     lhs[0] == rhs[0] && lhs[8..<16].elementsEqual(rhs[8..<16])
///   }
/// }
/// let hasher = StableHashEncoder(replacingClassInstances: true) { _ in Fields() }
/// ```
@usableFromInline
package protocol ValueBytes {
  /// Whether `lhs` and `rhs`, two values of the type, have the same bytes where it matters.
  func same(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool
}

/// A type's `ValueBytes`, held by reference, as `HashMemo` keeps it for its place: the memo
/// reads it at every comparison, and an existential read out of the memo's stored property
/// was copied first (its value witness's copy and destroy, about 165 instructions a
/// comparison); a class's `let` is read in place.
final class ValueLayout {
  let bytes: any ValueBytes

  init(_ bytes: any ValueBytes) {
    self.bytes = bytes
  }
}

/// `==` for `T`, when `T` is `Equatable`.
///
/// ```swift
/// equality(of: Int.self)?(1, 1)  // true
/// ```
@inlinable
func equality<T>(of type: T.Type) -> ((T, T) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  return equality(opening: equatable, as: type)
}

@usableFromInline
func equality<E: Equatable, T>(opening: E.Type, as type: T.Type) -> (T, T) -> Bool {
  // T is E: the casts only restate the type.
  { unsafeBitCast($0, to: E.self) == unsafeBitCast($1, to: E.self) }
}

/// A type-erased value that is both `Hashable` and `Sendable`: the storage for cancellation
/// ids, which cross from reducers (main actor) into effect bookkeeping.
///
/// ```swift
/// AnyHashableSendable(1) == AnyHashableSendable(1)    // true
/// AnyHashableSendable(1) == AnyHashableSendable("1")  // false
/// ```
public struct AnyHashableSendable: Hashable, Sendable, CustomStringConvertible {
  /// The wrapped value.
  public let base: any Hashable & Sendable
  /// The wrapped value's dynamic type, read when it is wrapped (where its type is known, for
  /// a struct or an enum at compile time): `type(of: base)` read later through the existential
  /// called the runtime (`swift_getDynamicType`, about 150 instructions) on every hash and
  /// comparison.
  @usableFromInline let baseType: ObjectIdentifier

  /// Wraps a value (an `AnyHashableSendable` is not wrapped twice).
  @inlinable
  public init(_ base: some Hashable & Sendable) {
    if let already = base as? AnyHashableSendable {
      self = already
    } else {
      self.base = base
      baseType = ObjectIdentifier(type(of: base))
    }
  }

  /// Equal when both wrap values of the same type that are equal (the hash includes the type
  /// too). The types are compared first, then the values without a dynamic cast: a cast out of
  /// an existential costs hundreds of instructions, and the store compares ids on every
  /// cancellation look-up.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    func isEqual<T: Hashable>(_ lhs: T, _ rhs: any Hashable & Sendable, _ rhsType: ObjectIdentifier)
      -> Bool
    {
      func open<U: Hashable>(_ rhs: U) -> Bool {
        // `U` is `T`: checked below before this is called.
        lhs == unsafeBitCast(rhs, to: T.self)
      }
      guard rhsType == ObjectIdentifier(T.self) else { return false }
      return open(rhs)
    }
    return isEqual(lhs.base, rhs.base, rhs.baseType)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(baseType)
    base.hash(into: &hasher)
  }

  public var description: String {
    String(describing: base)
  }
}

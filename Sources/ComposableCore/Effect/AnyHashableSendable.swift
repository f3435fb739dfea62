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

  /// Wraps a value (an `AnyHashableSendable` is not wrapped twice).
  public init(_ base: some Hashable & Sendable) {
    if let already = base as? AnyHashableSendable {
      self = already
    } else {
      self.base = base
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    func isEqual<T: Hashable>(_ lhs: T, _ rhs: any Hashable) -> Bool {
      guard let rhs = rhs as? T else { return false }
      return lhs == rhs
    }
    return isEqual(lhs.base, rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    base.hash(into: &hasher)
  }

  public var description: String {
    String(describing: base)
  }
}

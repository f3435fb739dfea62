#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether two values are the same: identical bits (the older one is kept alive by the
/// cache, so its buffers cannot have been reused), or equal by `Equatable`.
///
/// State is assumed to be made of values: a class instance inside it that is mutated in place
/// keeps its bits and is not re-encoded.
///
/// ```swift
/// Equality.same([1, 2], [1, 2])  // true
/// ```
enum Equality {
  static func same<T>(_ lhs: T, _ rhs: T) -> Bool {
    let identical = withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return true
        }
        return memcmp(leftBase, rightBase, left.count) == 0
      }
    }
    if identical { return true }
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs.isEqual(to: rhs)
  }
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

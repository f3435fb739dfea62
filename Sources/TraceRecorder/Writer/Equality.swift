#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether two values are certainly the same: identical bits. The older one is kept alive by
/// the writer's cache, so a copy-on-write buffer it shares cannot have been changed in place.
///
/// Not `Equatable`: a hand-written `==` may compare less than the value holds (a model equal
/// by its id whose title changed), and what it leaves out would go unrecorded. Values that
/// differ in bits are encoded again and their encodings compared. A class instance, which
/// changes in place and keeps its bits, is never encoded by the writer (see
/// `TraceValueEncoder.encodeReplacingClassInstances`): its placeholder does not change.
///
/// ```swift
/// let rows = [1, 2]
/// Equality.same(rows, rows)  // true
/// Equality.same(rows, [1, 2])  // false: another buffer
/// ```
enum Equality {
  static func same<T>(_ lhs: T, _ rhs: T) -> Bool {
    withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return true
        }
        return memcmp(leftBase, rightBase, left.count) == 0
      }
    }
  }

  /// Whether two values have identical bits in `bytes` (see `SignificantBytes`).
  static func same<T>(_ lhs: T, _ rhs: T, in bytes: SignificantBytes) -> Bool {
    guard bytes.ranges != nil else { return same(lhs, rhs) }
    return withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in bytes.same(left, right) }
    }
  }
}

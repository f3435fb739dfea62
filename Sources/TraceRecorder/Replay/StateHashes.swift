#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// States that matched their recorded hash, by that hash: when the reducer brings the state
/// back to one it was in (a toggle, a counter around zero, a sheet opened and closed), the
/// step's recorded hash finds that state, and a comparison of Swift values stands in for
/// encoding and hashing the state again.
///
/// Two states are the same when their bits are identical or, for an `Equatable` state, when
/// they are equal: the recorder makes the same assumption when it skips re-encoding a field
/// (see `Equality`), so a state it recorded under a hash is one that compares equal.
///
/// ```swift
/// var matched = StateHashes<Counter.State>()
/// if matched.contains(state, hash: row.stateHash) { … }  // no encoding
/// matched.insert(state, hash: row.stateHash)           // after it matched by encoding
/// ```
struct StateHashes<State> {
  /// How many states it keeps before starting again empty.
  static var capacity: Int { 1_024 }

  private var states: [UInt64: State] = [:]

  /// Whether `state` is a state that matched `hash` before.
  func contains(_ state: State, hash: UInt64) -> Bool {
    guard let known = states[hash] else { return false }
    return Self.same(known, state)
  }

  /// Keeps `state`, which hashes to `hash`.
  mutating func insert(_ state: State, hash: UInt64) {
    if states.count >= Self.capacity { states.removeAll(keepingCapacity: true) }
    states[hash] = state
  }

  private static func same(_ lhs: State, _ rhs: State) -> Bool {
    let identical = withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return left.count == right.count
        }
        return left.count == right.count && memcmp(leftBase, rightBase, left.count) == 0
      }
    }
    if identical { return true }
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs.isEqual(to: rhs)
  }
}

extension Equatable {
  /// `self == other` when `other` is a `Self`.
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

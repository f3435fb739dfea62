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
/// Only for `Equatable` states: two states are the same when they are equal. The recorder
/// makes the same assumption when it skips re-encoding an unchanged field (see `Equality`),
/// so a state it recorded under a hash is one that compares equal.
///
/// ```swift
/// var matched = StateHashes<Counter.State>()
/// if matched.contains(state, hash: row.stateHash, equal: ==) { … }  // no encoding
/// matched.insert(state, hash: row.stateHash)  // after it matched by encoding
/// ```
@usableFromInline
struct StateHashes<State> {
  /// How many states it keeps before starting again empty.
  @inlinable static var capacity: Int { 1_024 }

  @usableFromInline var states: [UInt64: State] = [:]

  @inlinable
  init() {}

  /// Whether `state` is a state that matched `hash` before.
  @inlinable
  func contains(_ state: State, hash: UInt64, equal: (State, State) -> Bool) -> Bool {
    guard let known = states[hash] else { return false }
    return equal(known, state)
  }

  /// Keeps `state`, which hashes to `hash`.
  @inlinable
  mutating func insert(_ state: State, hash: UInt64) {
    if states.count >= Self.capacity { states.removeAll(keepingCapacity: true) }
    states[hash] = state
  }
}

/// States that matched their recorded hash, by that hash: when the reducer brings the state
/// back to one it was in (a toggle, a counter around zero, a sheet opened and closed), the
/// step's recorded hash finds that state, and a comparison of Swift values stands in for
/// encoding and hashing the state again.
///
/// Only for `Equatable` states: two states are the same when they are equal. The recorder
/// makes the same assumption when it skips re-encoding an unchanged field (see `Equality`),
/// so a state it recorded under a hash is one that compares equal.
///
/// The table is its own (open addressing, the slot taken from the recorded hash's bits)
/// rather than a `Dictionary`: it is asked at every step, and the standard library hashed the
/// 64-bit key again, a third of the look-up. A slot shared by two hashes only costs a probe;
/// a hit needs the same hash and an equal state.
///
/// A class: the engine calls it at every step through its stored property, and a struct of
/// three arrays was copied out of the engine for each call (three retains and releases).
///
/// ```swift
/// let matched = StateHashes<Counter.State>()
/// if matched.contains(state, hash: row.stateHash, equal: ==) { … }  // no encoding
/// matched.insert(state, hash: row.stateHash)  // after it matched by encoding
/// ```
@usableFromInline
final class StateHashes<State> {
  /// How many states it keeps before starting again empty.
  @inlinable static var capacity: Int { 1_024 }
  /// Twice the capacity, a power of two: the table is at most half full.
  @inlinable static var slotCount: Int { 2_048 }

  // One thread only, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) @usableFromInline var hashes: [UInt64] = []
  @exclusivity(unchecked) @usableFromInline var states: [State] = []
  /// Per slot, the index of a state plus one; zero is an empty slot.
  @exclusivity(unchecked) @usableFromInline var slots: [Int32] = []

  @inlinable
  init() {}

  /// Whether `state` is a state that matched `hash` before.
  @inlinable
  func contains(_ state: State, hash: UInt64, equal: (State, State) -> Bool) -> Bool {
    guard let index = index(of: hash) else { return false }
    return equal(states[index], state)
  }

  /// Keeps `state`, which hashes to `hash` (in place of the one kept under `hash`, if any).
  @inlinable
  func insert(_ state: State, hash: UInt64) {
    if let index = index(of: hash) {
      states[index] = state
      return
    }
    if slots.isEmpty || states.count >= Self.capacity {
      hashes.removeAll(keepingCapacity: true)
      states.removeAll(keepingCapacity: true)
      slots = [Int32](repeating: 0, count: Self.slotCount)
    }
    var slot = Self.slot(of: hash)
    while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
    hashes.append(hash)
    states.append(state)
    slots[slot] = Int32(states.count)
  }

  /// Where the state kept under `hash` is in `states`.
  @inlinable
  func index(of hash: UInt64) -> Int? {
    guard !slots.isEmpty else { return nil }
    var slot = Self.slot(of: hash)
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      if hashes[index] == hash { return index }
      slot = (slot + 1) & (Self.slotCount - 1)
    }
    return nil
  }

  /// The first slot to look in: the hash's top bits after a multiply, so a trace whose
  /// hashes agree in their low bits still spreads over the table.
  @inlinable
  static func slot(of hash: UInt64) -> Int {
    Int(truncatingIfNeeded: (hash &* 0x9e37_79b9_7f4a_7c15) >> 53)
  }
}

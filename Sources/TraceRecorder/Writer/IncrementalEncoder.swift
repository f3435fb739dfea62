import ComposableCore
import TraceKit

/// Encodes each recorded state reusing the previous one's encoding wherever the Swift value
/// did not change, and derives the diff from what was re-encoded, so that a step costs what
/// its change costs, and hashes the state from the cached hashes of what did not change.
///
/// The state's top level is walked through its own `encode(to:)`: an unchanged field (same
/// bits, or equal by `Equatable`) reuses its cached tree and hash; an `IdentifiedArray` field
/// skips the chunks it shares with the previous array (kept alive, so a shared chunk holds the
/// same elements), compares the elements of the other chunks bitwise and re-encodes and
/// re-hashes only the elements that differ, their runs and the array (see `MerkleHash`).
/// Anything else falls back to `TraceValueEncoder` and `TraceDiff` for that field, or for the
/// whole state when its top level is not a keyed container.
///
/// ```swift
/// var encoder = IncrementalEncoder<AppState>()
/// let first = try encoder.encode(state)         // full encoding, no changes
/// state.rows[id: 7]?.title = "x"
/// let second = try encoder.encode(state)        // re-encodes row 7 only
/// second.changes  // [.set(rows[id: 7].title, "x")]
/// ```
struct IncrementalEncoder<State: Encodable> {
  struct Result {
    var value: TraceValue
    var changes: [TraceChange]
    /// `value.stableHash`, computed from cached subtree hashes.
    var hash: UInt64
  }

  private var fields: [FieldCache] = []
  private var previous: TraceValue?
  private let encoder = TraceValueEncoder()

  mutating func encode(_ state: State) throws -> Result {
    let walker = FieldWalker(cache: fields)
    do {
      try state.encode(to: walker)
    } catch is FieldWalker.Unsupported {
      return try whole(state)
    }
    guard walker.mode == .keyed else { return try whole(state) }
    let value = TraceValue.object(walker.fields.map { TraceField($0.key, $0.value) })
    var changes: [TraceChange] = []
    if previous != nil, walker.fields.map(\.key) == fields.map(\.key) {
      for field in walker.fields { changes += field.changes }
    } else if let previous {
      changes = TraceDiff.changes(from: previous, to: value)
    }
    let hash = MerkleHash.objectHash(walker.fields.map { ($0.key, $0.value, $0.hash) })
    fields = walker.fields
    previous = value
    return Result(value: value, changes: changes, hash: hash)
  }

  private mutating func whole(_ state: State) throws -> Result {
    let value = try encoder.encode(state)
    let changes = previous.map { TraceDiff.changes(from: $0, to: value) } ?? []
    fields = []
    previous = value
    return Result(value: value, changes: changes, hash: value.stableHash)
  }
}

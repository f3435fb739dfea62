import ComposableCore
import TraceKit

/// Encodes each recorded state reusing the previous one's encoding wherever the Swift value
/// did not change, and derives the diff from what was re-encoded, so that a step costs what
/// its change costs (the stable hash of the whole state is the exception: see the report).
///
/// The state's top level is walked through its own `encode(to:)`: an unchanged field (same
/// bits, or equal by `Equatable`) reuses its cached tree; an `IdentifiedArray` field compares
/// its elements bitwise with the previous array's (kept alive, so equal bits are equal values)
/// and re-encodes only the elements that differ. Anything else falls back to
/// `TraceValueEncoder` and `TraceDiff` for that field, or for the whole state when its top
/// level is not a keyed container.
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
    fields = walker.fields
    previous = value
    return Result(value: value, changes: changes)
  }

  private mutating func whole(_ state: State) throws -> Result {
    let value = try encoder.encode(state)
    let changes = previous.map { TraceDiff.changes(from: $0, to: value) } ?? []
    fields = []
    previous = value
    return Result(value: value, changes: changes)
  }
}

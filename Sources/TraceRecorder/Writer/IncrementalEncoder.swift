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
    fileprivate enum Source {
      case fields([FieldCache])
      case whole(TraceValue)
    }

    fileprivate var source: Source
    var changes: [TraceChange]
    /// The leaf-most paths the changes changed: what `inspector diff` shows for the step.
    var paths: [TracePath]
    /// Where this step's encoding put a placeholder for class instances (see
    /// `TraceValueEncoder.encodeReplacingClassInstances`): parts not encoded again are not
    /// listed.
    var replaced: [TracePath] = []
    /// `value.stableHash`, computed from cached subtree hashes.
    var hash: UInt64

    /// The encoded state. Built on demand: for an identified-array field it is O(count), so a
    /// writer asks for it only for keyframes and redaction.
    var value: TraceValue {
      switch source {
      case .fields(let fields): .object(fields.map { TraceField($0.key, $0.value) })
      case .whole(let value): value
      }
    }
  }

  /// The previous step's encoding (its fields share every unchanged run with the next one's).
  private var previous: Result.Source?
  private let encoder = TraceValueEncoder()

  mutating func encode(_ state: State) throws -> Result {
    let cache: [FieldCache]
    if case .fields(let fields) = previous { cache = fields } else { cache = [] }
    let walker = FieldWalker(cache: cache)
    do {
      try state.encode(to: walker)
    } catch is FieldWalker.Unsupported {
      return try whole(state)
    }
    guard walker.mode == .keyed else { return try whole(state) }
    let fields = walker.fields
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    var replaced: [TracePath] = []
    for case let edits? in fields.lazy.map(\.edits) { replaced += edits.replaced }
    let sameKeys =
      fields.count == cache.count && zip(fields, cache).allSatisfy { $0.key == $1.key }
    if previous != nil, sameKeys {
      for case let edits? in fields.lazy.map(\.edits) {
        changes += edits.changes
        paths += edits.paths
      }
    } else if let previous {
      let before = Result(source: previous, changes: [], paths: [], replaced: [], hash: 0).value
      let after = TraceValue.object(fields.map { TraceField($0.key, $0.value) })
      (changes, paths) = TraceDiff.changesAndPaths(from: before, to: after)
    }
    var object = MerkleHash.ObjectHasher(fieldCount: fields.count)
    for field in fields { field.combine(into: &object) }
    let hash = object.finalize()
    previous = .fields(fields)
    return Result(
      source: .fields(fields), changes: changes, paths: paths, replaced: replaced, hash: hash)
  }

  private mutating func whole(_ state: State) throws -> Result {
    let (value, replaced) = try encoder.encodeReplacingClassInstances(state)
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    if let previous {
      let before = Result(source: previous, changes: [], paths: [], replaced: [], hash: 0).value
      (changes, paths) = TraceDiff.changesAndPaths(from: before, to: value)
    }
    previous = .whole(value)
    return Result(
      source: .whole(value), changes: changes, paths: paths, replaced: replaced,
      hash: value.stableHash)
  }
}

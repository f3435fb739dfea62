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
/// var encoder = IncrementalEncoder()
/// let first = try encoder.encode(state)         // full encoding, no changes
/// state.rows[id: 7]?.title = "x"
/// let second = try encoder.encode(state)        // re-encodes row 7 only
/// second.changes  // [.set(rows[id: 7].title, "x")]
/// ```
///
/// Not generic: the writer runs unspecialized, and a generic encoder (and its `Result`) cost
/// two metadata look-ups a step; only `encode` is generic, over the state's own type.
struct IncrementalEncoder {
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

    /// The encoded state's JSON (`value.writeJSON`), from the cached parts: what a keyframe
    /// stores, without building the tree of an identified array's elements.
    var json: [UInt8] { json(capacity: 4096) }

    /// `json`, written through a `JSONBuffer` straight into an array of `capacity` bytes (a
    /// writer passes the size of its last keyframe, or `jsonSizeHint` before the first) with
    /// room for the newline the trace writer appends; copied out once only when it outgrows
    /// that. Appending each element's cached JSON to an array cost about 150 instructions,
    /// and the array was copied each time it grew, and once more for the newline when full.
    func json(capacity: Int) -> [UInt8] {
      JSONBuffer.array(capacity: capacity, room: 1) { buffer in
        switch source {
        case .fields(let fields): FieldCache.writeObjectJSON(fields, into: &buffer)
        case .whole(let value): value.writeJSON(into: &buffer)
        }
      }
    }

    /// Room for `json` before any keyframe was written: the identified arrays' JSON as
    /// written when they were encoded, an eighth more, and 4 KB for the rest.
    var jsonSizeHint: Int {
      guard case .fields(let fields) = source else { return 4096 }
      let elements = FieldCache.elementsJSONCount(fields)
      return elements + elements / 8 + 4096
    }

    /// The encoded state. Built on demand: for an identified-array field it is O(count), so a
    /// writer asks for it only for keyframes and redaction.
    var value: TraceValue {
      switch source {
      case .fields(let fields): FieldCache.objectValue(fields)
      case .whole(let value): value
      }
    }
  }

  /// The previous step's encoding (its fields share every unchanged run with the next one's).
  private var previous: Result.Source?
  /// The previous step's changes and paths, held until the next step: the trace stage holds
  /// these arrays too, and the thread that lets go last frees them. Held here, they are often
  /// freed by this thread, which allocated them (memory one thread allocates and another frees
  /// costs both in `malloc`'s arenas).
  private var handed: (changes: [TraceChange], paths: [TracePath]) = ([], [])
  /// The storage of the fields two steps back, emptied: the next walk's fields go into it, so
  /// that a step neither allocates the top level's array nor frees the one it replaced (about
  /// 400 instructions a counter step, callgrind).
  private var spare: [FieldCache] = []
  private let encoder = TraceValueEncoder()
  private let types = WalkedTypes()

  mutating func encode<State: Encodable>(_ state: State) throws -> Result {
    var cache: [FieldCache] = []
    if case .fields(let fields) = previous { cache = fields }
    var stagedElements = false
    var sameKeys = false
    // Held here alone, so that taking the fields' edits and applying staged elements change
    // them in place (a copy out of a tuple kept the array shared, and copied it).
    guard
      var fields = try walk(
        state, over: cache, stagedElements: &stagedElements, sameKeys: &sameKeys)
    else {
      return try whole(state)
    }
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    var replaced: [TracePath] = []
    let hadPrevious = previous != nil
    // By index: iterating the fields themselves copies each entry (most of a small state's
    // cost). Each changed field's edits are moved out of it: most steps change one field, and
    // taking its arrays costs no allocation, copy or reference count.
    for index in fields.indices where fields[index].edits != nil {
      var edits = fields[index].takeEdits()!
      replaced.append(taking: &edits.replaced)
      if hadPrevious, sameKeys {
        changes.append(taking: &edits.changes)
        paths.append(taking: &edits.paths)
      }
    }
    var before: TraceValue?
    if let previous, !sameKeys {
      before = Result(source: previous, changes: [], paths: [], replaced: [], hash: 0).value
    }
    // Nothing can fail from here on, and the previous encoding is no longer needed: dropping it
    // leaves the runs the identified arrays staged changes in to this step alone, so they are
    // changed in place instead of copied (64 elements' trees and JSON a step).
    let dropped = previous.take()
    cache = []
    handed = ([], [])
    if case .fields(var old) = consume dropped {
      // Held here alone unless a caller kept a result (then emptying it allocates, as a new
      // array would). Field by field: `removeAll(keepingCapacity:)` freed them through the
      // runtime's generic array destroy, about 70 instructions a counter step more.
      while old.popLast() != nil {}
      spare = old
    }
    if stagedElements {
      for index in fields.indices { fields[index].applyStagedElements() }
    }
    if let before {
      let after = FieldCache.objectValue(fields)
      (changes, paths) = TraceDiff.changesAndPaths(from: before, to: after)
    }
    let hash = FieldCache.objectHash(fields)
    previous = .fields(fields)
    handed = (changes, paths)
    return Result(
      source: .fields(fields), changes: changes, paths: paths, replaced: replaced, hash: hash)
  }

  /// The state's top level walked over the previous step's fields; nil when it is not one
  /// keyed container of fields; `stagedElements`: whether an identified array staged its
  /// elements; `sameKeys`: whether the fields have `cache`'s keys in their order (see
  /// `FieldWalker.keepsKeys`). The walker, and its hold on `cache`, ends here.
  private mutating func walk<State: Encodable>(
    _ state: State, over cache: [FieldCache], stagedElements: inout Bool,
    sameKeys: inout Bool
  ) throws -> [FieldCache]? {
    let walker = types.walker(over: cache, stagesElements: true, buffer: &spare)
    // No container keeps a walker, nor the walker the previous fields, past the walk.
    defer {
      types.containers.unbindAll()
      types.recycle(walker)
    }
    do {
      try state.encode(to: walker)
    } catch is FieldWalker.Unsupported {
      return nil
    }
    guard walker.mode == .keyed else { return nil }
    stagedElements = walker.stagedElements
    sameKeys = walker.keepsKeys
    return walker.takeFields()
  }

  private mutating func whole<State: Encodable>(_ state: State) throws -> Result {
    let (value, replaced) = try encoder.encodeReplacingClassInstances(state)
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    if let previous {
      let before = Result(source: previous, changes: [], paths: [], replaced: [], hash: 0).value
      (changes, paths) = TraceDiff.changesAndPaths(from: before, to: value)
    }
    previous = .whole(value)
    handed = (changes, paths)
    return Result(
      source: .whole(value), changes: changes, paths: paths, replaced: replaced,
      hash: value.stableHash)
  }
}

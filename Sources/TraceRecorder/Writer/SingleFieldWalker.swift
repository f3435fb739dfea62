import ComposableCore
import TraceKit

/// The `Encoder` for a field whose value writes one single value: a hand-written wrapper
/// (`singleValueContainer().encode(value)`), a raw-value enum. What it writes is the field, as
/// `TraceValueEncoder` encodes a single value: a wrapped value goes through a `FieldWalker`
/// under the same key, so a change deep inside a wrapped struct re-encodes only its path
/// instead of the whole struct. `Optional` and `@PresentationState`, whose encodings are
/// fixed, are read without it, through its `field` and `leaf` (see `WalkedWrapper`).
///
/// `takeResult()` is nil when the value wrote anything else (a keyed or unkeyed container, two
/// values, or nothing): the caller then encodes it whole.
///
/// ```swift
/// let walker = SingleFieldWalker(key: "search", previous: cached, types: types)
/// try Tagged(search).encode(to: walker)  // a wrapper writing `search` as its single value
/// walker.takeResult()?.edits?.changes  // [.set(search.query, "ab")]
/// ```
final class SingleFieldWalker: Encoder, SingleValueEncodingContainer {
  var codingPath: [CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  // One thread walks a walker, and idle walkers are reused (see `WalkedTypes.singleWalker`):
  // no dynamic exclusivity checks.
  @exclusivity(unchecked) private var key: String
  /// The path of the level the field is in (see `FieldWalker.path`).
  @exclusivity(unchecked) private var prefix: [TracePath.Component]
  /// The field's previous encoding.
  @exclusivity(unchecked) private var previous: FieldCache?
  /// The Swift value `previous` is compared by when not its own: the one the previous value
  /// wrapped (see `AnyValueBox.inner`).
  @exclusivity(unchecked) private var previousBox: AnyValueBox?
  /// Not retained: the `WalkedTypes` keeps its idle walkers, and a walker walks only inside a
  /// walk of the writer that owns both.
  private unowned(unsafe) let types: WalkedTypes
  @exclusivity(unchecked) private var field: FieldCache?
  @exclusivity(unchecked) private var failed = false
  @exclusivity(unchecked) private var writes = 0

  init(
    key: String, previous: FieldCache?, previousBox: AnyValueBox? = nil,
    prefix: [TracePath.Component] = [], types: WalkedTypes
  ) {
    self.key = key
    self.prefix = prefix
    self.previous = previous
    self.previousBox = previousBox
    self.types = types
  }

  /// Readies an idle walker for the field `key` (see `WalkedTypes.singleWalker`).
  func begin(
    key: String, previous: FieldCache?, previousBox: AnyValueBox?,
    prefix: [TracePath.Component]
  ) {
    self.key = key
    self.prefix = prefix
    self.previous = previous
    self.previousBox = previousBox
    field = nil
    failed = false
    writes = 0
  }

  /// Lets go of what the walk held, so that the walker can wait idle.
  func end() {
    previous = nil
    previousBox = nil
    field = nil
    prefix = []
  }

  /// The previous encoding as kept for this step: with the Swift value it is compared by
  /// (`previousBox`, when not its own).
  private static func kept(_ previous: FieldCache, boxedIn previousBox: AnyValueBox?)
    -> FieldCache
  {
    previousBox.map { previous.kept(boxedIn: $0) } ?? previous.kept
  }

  /// The single value written, or nil (see the type's summary), taken out of the walker: the
  /// field's entry is then held by the caller alone (see `FieldCache.rebox`).
  func takeResult() -> FieldCache? {
    defer { field = nil }
    return failed || writes != 1 ? nil : field
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    failed = true
    return KeyedEncodingContainer(FailingKeyed<Key>())
  }

  func unkeyedContainer() -> UnkeyedEncodingContainer {
    failed = true
    return FailingUnkeyed()
  }

  func singleValueContainer() -> SingleValueEncodingContainer { self }

  // The same trees as `TraceValueEncoder`'s single-value container writes.
  func encodeNil() throws { leaf(.null) }
  func encode(_ value: Bool) throws { leaf(.bool(value)) }
  func encode(_ value: String) throws { leaf(.string(value)) }
  func encode(_ value: Double) throws { leaf(.double(value)) }
  func encode(_ value: Float) throws { leaf(.double(Double(value))) }
  func encode(_ value: Int) throws { leaf(.int(Int64(value))) }
  func encode(_ value: Int8) throws { leaf(.int(Int64(value))) }
  func encode(_ value: Int16) throws { leaf(.int(Int64(value))) }
  func encode(_ value: Int32) throws { leaf(.int(Int64(value))) }
  func encode(_ value: Int64) throws { leaf(.int(value)) }
  func encode(_ value: UInt) throws { leaf(unsigned(UInt64(value))) }
  func encode(_ value: UInt8) throws { leaf(.int(Int64(value))) }
  func encode(_ value: UInt16) throws { leaf(.int(Int64(value))) }
  func encode(_ value: UInt32) throws { leaf(.int(Int64(value))) }
  func encode(_ value: UInt64) throws { leaf(unsigned(value)) }

  func encode<T: Encodable>(_ value: T) throws {
    writes += 1
    field = try Self.field(
      key, value, previous: previous, previousBox: previousBox, at: prefix, types: types)
  }

  private func unsigned(_ value: UInt64) -> TraceValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  private func leaf(_ value: TraceValue) {
    writes += 1
    field = Self.leaf(key, value, previous: previous, previousBox: previousBox, at: prefix)
  }

  /// The field `key` (in the level at `prefix`) of `value`, the one value a wrapper wrote, as
  /// a walker of this one field would add it (`FieldWalker.add`), without the walker: kept when
  /// it has the bits of the value `previous` was compared by (`previousBox`, when not its own).
  static func field<T: Encodable>(
    _ key: String, _ value: T, previous: FieldCache?, previousBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache {
    if let previous, (previousBox ?? previous.swiftValue).holdsSameBits(as: value) {
      return kept(previous, boxedIn: previousBox)
    }
    return try FieldWalker.field(
      key, value, old: previous, oldBox: previousBox, at: prefix, types: types, staging: false,
      in: nil
    ).field
  }

  /// The field `key` of a scalar or `null` a wrapper wrote: kept when it equals the previous
  /// tree, else set whole, as `TraceDiff` sets a scalar that differs from what it replaces
  /// (see `FieldWalker.add(_:leaf:)`): the change's path is the changed path. Diffing it
  /// (and building the previous tree, a dismissed presentation's whole state) cost about 950
  /// instructions a change.
  static func leaf(
    _ key: String, _ value: TraceValue, previous: FieldCache?, previousBox: AnyValueBox?,
    at prefix: [TracePath.Component]
  ) -> FieldCache {
    if let previous, case .tree(let tree) = previous.encoding, tree == value {
      return kept(previous, boxedIn: previousBox)
    }
    var edits: FieldCache.Edits?
    let path = FieldWalker.fieldPath(key, at: prefix, old: previous)
    if previous != nil {
      let changed = TracePath(path)
      edits = FieldCache.Edits(changes: [.set(changed, value)], paths: [changed])
    }
    return FieldCache(
      key: previous?.hashedKey ?? MerkleHash.Key(key), path: path, swiftValue: ValueBox.none,
      value: value, edits: edits)
  }
}

/// A value whose `encode(to:)` writes one single value, read by the writer without calling it:
/// an `Optional` and `@PresentationState`, whose encodings are fixed. Its field is the one
/// `FieldWalker.passThrough` makes from what the value writes, made without the value's
/// `encode(to:)`, a `SingleFieldWalker` or the protocol witnesses between them, and, for a
/// presentation, without a box of its optional's own (callgrind, the composed app's 12,000
/// steps: the walk 3.4 M fewer instructions, the frees 2.0 M).
protocol WalkedWrapper {
  /// The field `key` (in the level at `prefix`) of what the value at `wrapper` (a `Self`)
  /// writes, which differs from its previous encoding `old` (nil for a new field), compared by
  /// `wrappedBox` (the Swift value the previous value wrapped, when given: see
  /// `FieldWalker.wrapperField`); nil when the caller encodes the value whole. The caller keeps
  /// the value's own Swift value around the field's.
  static func wrappedField(
    in wrapper: UnsafeRawPointer, key: String, old: FieldCache?, wrappedBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache?
}

extension Optional: WalkedWrapper where Wrapped: Encodable {
  /// The field of what the optional at `wrapper` writes, as `Optional.encode(to:)` writes it:
  /// `nil` as `null`, a value as itself, compared by `wrappedBox` (the Swift value the previous
  /// optional wrapped, when given); nil when `TraceValueEncoder` marks the value (one that
  /// encodes as `null` or as an optional's marker, `Optional.some`): the caller encodes it
  /// whole.
  ///
  /// `nil`'s `null` is the leaf itself, never marked: sent to the whole encoding, the composed
  /// app's dismissed search cost the writer's first stage about 630 instructions a step
  /// (callgrind, `record.throughput.app`'s 12,000 steps).
  ///
  /// The optional is read in place: its case from its tag (`isNone`), and a value present at
  /// its start, where an enum of one payload keeps it. Copied out, or matched by a pattern, the
  /// optional was copied through `Optional<Wrapped>`, which the runtime looked up (about 350
  /// instructions a walk).
  static func wrappedField(
    in wrapper: UnsafeRawPointer, key: String, old: FieldCache?, wrappedBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache? {
    guard !isNone(wrapper.assumingMemoryBound(to: Self.self).pointee) else {
      return SingleFieldWalker.leaf(
        key, .null, previous: old, previousBox: wrappedBox, at: prefix)
    }
    let wrapped = wrapper.assumingMemoryBound(to: Wrapped.self).pointee
    let field = try SingleFieldWalker.field(
      key, wrapped, previous: old, previousBox: wrappedBox, at: prefix, types: types)
    if case .tree(let tree) = field.encoding, FieldWalker.marksOptional(tree) { return nil }
    return field
  }

  /// `wrappedField(in:…)` of `optional`.
  static func wrappedField(
    _ optional: Self, key: String, old: FieldCache?, wrappedBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache? {
    try withUnsafePointer(to: optional) {
      try wrappedField(
        in: UnsafeRawPointer($0), key: key, old: old, wrappedBox: wrappedBox, at: prefix,
        types: types)
    }
  }
}

/// Whether `optional` is `nil`, read from its tag through `Wrapped`'s witnesses: borrowed where
/// it is, not copied (see `Optional.wrappedField(in:…)`).
@inline(never)
private func isNone<Wrapped>(_ optional: borrowing Wrapped?) -> Bool {
  optional == nil
}

extension PresentationState: WalkedWrapper where State: Encodable {
  /// Its `encode(to:)` writes its `wrappedValue`, an optional, as its one single value: the
  /// field is that optional's, read in place in the presentation's box, and the presentation's
  /// Swift value is kept around what the optional wraps, with no box of the optional's own.
  static func wrappedField(
    in wrapper: UnsafeRawPointer, key: String, old: FieldCache?, wrappedBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache? {
    try wrapper.assumingMemoryBound(to: Self.self).pointee.withWrappedValuePointer {
      try State?.wrappedField(
        in: $0, key: key, old: old, wrappedBox: wrappedBox, at: prefix, types: types)
    }
  }
}

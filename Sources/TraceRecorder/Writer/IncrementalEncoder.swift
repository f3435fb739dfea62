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

/// One top-level field as last encoded: its Swift value (for comparison) and its tree.
struct FieldCache {
  var key: String
  var swiftValue: Any
  var value: TraceValue
  /// For an `IdentifiedArray` field: the element trees, by position.
  var elements: [TraceValue]?
  /// The changes this field made in the step that produced it.
  var changes: [TraceChange] = []
}

/// An `Encoder` for the top level of a state only: every field goes through `field(_:key:)`.
final class FieldWalker: Encoder {
  struct Unsupported: Error {}

  enum Mode { case none, keyed }

  var codingPath: [CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var mode = Mode.none
  var fields: [FieldCache] = []
  private var previous: [String: FieldCache] = [:]
  private var failed = false

  init(cache: [FieldCache]) {
    for field in cache { previous[field.key] = field }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if mode == .none { mode = .keyed }
    return KeyedEncodingContainer(FieldContainer<Key>(walker: self))
  }

  func unkeyedContainer() -> UnkeyedEncodingContainer {
    failed = true
    return FailingUnkeyed()
  }

  func singleValueContainer() -> SingleValueEncodingContainer {
    failed = true
    return FailingSingle()
  }

  func add(_ key: String, leaf value: TraceValue, swiftValue: Any) throws {
    try check()
    let old = previous[key]
    var changes: [TraceChange] = []
    if let old {
      if old.value != value { changes = [.set(TracePath([.key(key)]), value)] }
    }
    fields.append(FieldCache(key: key, swiftValue: swiftValue, value: value, changes: changes))
  }

  func add<T: Encodable>(_ key: String, _ value: T) throws {
    try check()
    let old = previous[key]
    if let old, let oldValue = old.swiftValue as? T, Equality.same(oldValue, value) {
      var kept = old
      kept.changes = []
      kept.swiftValue = value
      fields.append(kept)
      return
    }
    if let collection = value as? any IncrementalElements {
      fields.append(try collection.encodeIncrementally(key: key, previous: old))
      return
    }
    let encoded = try TraceValueEncoder().encode(value)
    var changes: [TraceChange] = []
    if let old {
      changes = TraceDiff.changes(from: old.value, to: encoded).map { $0.prefixed(by: key) }
    }
    fields.append(FieldCache(key: key, swiftValue: value, value: encoded, changes: changes))
  }

  func check() throws {
    if failed { throw Unsupported() }
  }

  func fail() throws -> Never {
    failed = true
    throw Unsupported()
  }
}

struct FieldContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let walker: FieldWalker
  var codingPath: [CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .null, swiftValue: ())
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .bool(value), swiftValue: value)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .string(value), swiftValue: value)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .double(value), swiftValue: value)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .double(Double(value)), swiftValue: value)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(value), swiftValue: value)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: unsigned(UInt64(value)), swiftValue: value)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: .int(Int64(value)), swiftValue: value)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try walker.add(key.stringValue, leaf: unsigned(value), swiftValue: value)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try walker.add(key.stringValue, value)
  }

  private func unsigned(_ value: UInt64) -> TraceValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  // Nested containers (hand-written encoders, enums at the top level): the whole state is
  // encoded by `TraceValueEncoder` instead.
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    _ = try? walker.fail()
    return KeyedEncodingContainer(FailingKeyed<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    _ = try? walker.fail()
    return FailingUnkeyed()
  }
  mutating func superEncoder() -> Encoder {
    _ = try? walker.fail()
    return walker
  }
  mutating func superEncoder(forKey key: Key) -> Encoder {
    _ = try? walker.fail()
    return walker
  }
}

extension TraceChange {
  /// The change, moved under an object field.
  func prefixed(by key: String) -> TraceChange {
    prefixed(by: [.key(key)])
  }

  func prefixed(by components: [TracePath.Component]) -> TraceChange {
    switch self {
    case .set(let path, let value): .set(TracePath(components + path.components), value)
    case .remove(let path): .remove(TracePath(components + path.components))
    case .insert(let path, let value): .insert(TracePath(components + path.components), value)
    }
  }
}

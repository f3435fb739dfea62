import TraceKit

/// An `Encoder` for the top level of a state only: every field goes through `add`.
final class FieldWalker: Encoder {
  struct Unsupported: Error {}

  enum Mode { case none, keyed }

  var codingPath: [CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var mode = Mode.none
  var fields: [FieldCache] = []
  private let previousFields: [FieldCache]
  private var failed = false

  init(cache: [FieldCache]) {
    previousFields = cache
    fields.reserveCapacity(cache.count)
  }

  /// The field's previous encoding: fields come in the same order step after step, so the
  /// one at the same position is checked first.
  private func previous(_ key: String) -> FieldCache? {
    let position = fields.count
    if position < previousFields.count, previousFields[position].key == key {
      return previousFields[position]
    }
    return previousFields.first { $0.key == key }
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
    let old = previous(key)
    var edits: FieldCache.Edits?
    if let old {
      if case .tree(let previous) = old.encoding, previous == value {
        var kept = old
        kept.edits = nil
        kept.swiftValue = swiftValue
        fields.append(kept)
        return
      }
      // A scalar (or null) on one side at least: the field changed as a whole.
      let path = TracePath([.key(key)])
      edits = FieldCache.Edits(changes: [.set(path, value)], paths: [path])
    }
    fields.append(FieldCache(key: key, swiftValue: swiftValue, value: value, edits: edits))
  }

  func add<T: Encodable>(_ key: String, _ value: T) throws {
    try check()
    let old = previous(key)
    if let old, let oldValue = old.swiftValue as? T, Equality.same(oldValue, value) {
      var kept = old
      kept.edits = nil
      kept.swiftValue = value
      fields.append(kept)
      return
    }
    if let collection = value as? any IncrementalElements {
      fields.append(try collection.encodeIncrementally(key: key, previous: old))
      return
    }
    let (encoded, replaced) = try TraceValueEncoder().encodeReplacingClassInstances(value)
    var edits = FieldCache.Edits(replaced: replaced.map { $0.prefixed(by: [.key(key)]) })
    if let old {
      let diff = TraceDiff.changesAndPaths(from: old.value, to: encoded)
      edits.changes = diff.changes.map { $0.prefixed(by: key) }
      edits.paths = diff.paths.map { $0.prefixed(by: [.key(key)]) }
    }
    fields.append(FieldCache(key: key, swiftValue: value, value: encoded, edits: edits.orNil))
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

  // `nil` is `null`, as `TraceValueEncoder` writes it (see `TraceKeyedEncoding`).
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
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

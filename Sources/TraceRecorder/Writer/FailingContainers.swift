/// Containers handed out after `FieldWalker` gave up on a state: they accept anything and
/// record nothing (the state is then encoded whole by `TraceValueEncoder`).
///
/// ```swift
/// var container = FailingUnkeyed()
/// try container.encode(1)  // ignored
/// ```
struct FailingUnkeyed: UnkeyedEncodingContainer {
  var codingPath: [CodingKey] { [] }
  var count: Int { 0 }
  mutating func encodeNil() throws { throw FieldWalker.Unsupported() }
  mutating func encode<T: Encodable>(_ value: T) throws { throw FieldWalker.Unsupported() }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(FailingKeyed<NestedKey>())
  }
  mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { FailingUnkeyed() }
  mutating func superEncoder() -> Encoder { FailingEncoder() }
}

struct FailingSingle: SingleValueEncodingContainer {
  var codingPath: [CodingKey] { [] }
  mutating func encodeNil() throws { throw FieldWalker.Unsupported() }
  mutating func encode<T: Encodable>(_ value: T) throws { throw FieldWalker.Unsupported() }
}

struct FailingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [CodingKey] { [] }
  mutating func encodeNil(forKey key: Key) throws { throw FieldWalker.Unsupported() }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    throw FieldWalker.Unsupported()
  }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(FailingKeyed<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    FailingUnkeyed()
  }
  mutating func superEncoder() -> Encoder { FailingEncoder() }
  mutating func superEncoder(forKey key: Key) -> Encoder { FailingEncoder() }
}

struct FailingEncoder: Encoder {
  var codingPath: [CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(FailingKeyed<Key>())
  }
  func unkeyedContainer() -> UnkeyedEncodingContainer { FailingUnkeyed() }
  func singleValueContainer() -> SingleValueEncodingContainer { FailingSingle() }
}

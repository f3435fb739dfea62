/// A keyed container that writes an absent optional as `null` instead of leaving its key out
/// (the standard library's default): a field keeps its place in the state whatever its
/// value, so an optional that gets a value is a change at its own path, not a new key in the
/// middle of the object.
///
/// The trace's encoders (`TraceKeyedEncoding`, the hashing encoder's and the recorder's
/// field walker) conform, so all three write the same thing for `nil`: what their own
/// `encodeNil(forKey:)` writes.
///
/// ```swift
/// struct Profile: Encodable { var nickname: String? }
/// try TraceValueEncoder().encode(Profile())  // {"nickname": null}
/// ```
package protocol NullWritingKeyedEncoding: KeyedEncodingContainerProtocol {}

extension NullWritingKeyedEncoding {
  package mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  package mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
}

/// A keyed container of the trace's encoders: its scalars are `TraceValue` leaves, and an
/// absent optional is written as `null` instead of leaving its key out (the standard
/// library's default), so a field keeps its place in the state whatever its value, and an
/// optional that gets a value is a change at its own path, not a new key in the middle of the
/// object.
///
/// The tree encoder's and the hashing encoder's containers take their scalars from here, so
/// both map Swift's scalars to leaves by one rule; the recorder's field walker writes the same
/// leaves itself (faster on its thread) and takes the `nil` rule.
///
/// ```swift
/// struct Profile: Encodable { var nickname: String?; var age: UInt8 = 7 }
/// try TraceValueEncoder().encode(Profile())  // {"nickname": null, "age": 7}
/// ```
package protocol TraceLeafKeyedEncoding: KeyedEncodingContainerProtocol {
  /// Writes `value`, a leaf, under `key`.
  mutating func appendLeaf(_ value: TraceValue, forKey key: Key) throws
}

// Inlined into each conformer's witnesses: called as generic code, a generic conformer's
// witness looked its `TraceLeafKeyedEncoding` witness table up in the runtime's cache at
// every scalar (`swift_getWitnessTable`, about 180 instructions).
extension TraceLeafKeyedEncoding {
  @inlinable @inline(__always)
  package mutating func encodeNil(forKey key: Key) throws {
    try appendLeaf(.null, forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Bool, forKey key: Key) throws {
    try appendLeaf(.bool(value), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: String, forKey key: Key) throws {
    try appendLeaf(.string(value), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Double, forKey key: Key) throws {
    try appendLeaf(.double(value), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Float, forKey key: Key) throws {
    try appendLeaf(.double(Double(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Int, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Int8, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Int16, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Int32, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: Int64, forKey key: Key) throws {
    try appendLeaf(.int(value), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: UInt, forKey key: Key) throws {
    try appendLeaf(TraceValue.unsigned(UInt64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try appendLeaf(.int(Int64(value)), forKey: key)
  }
  @inlinable @inline(__always)
  package mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try appendLeaf(TraceValue.unsigned(value), forKey: key)
  }

  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  @inlinable @inline(__always)
  package mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
}

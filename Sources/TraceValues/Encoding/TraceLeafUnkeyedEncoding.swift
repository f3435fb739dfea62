/// An unkeyed container of the trace's encoders, whose scalars are `TraceValue` leaves: the
/// tree encoder's and the hashing encoder's take them from here, so both map Swift's scalars
/// to leaves by one rule (the keyed rule is `TraceLeafKeyedEncoding`'s).
///
/// ```swift
/// try TraceValueEncoder().encode([UInt8(1), 2])  // [1, 2]
/// ```
protocol TraceLeafUnkeyedEncoding: UnkeyedEncodingContainer {
  /// Appends `value`, a leaf.
  mutating func appendLeaf(_ value: TraceValue)
}

extension TraceLeafUnkeyedEncoding {
  mutating func encodeNil() throws { appendLeaf(.null) }
  mutating func encode(_ value: Bool) throws { appendLeaf(.bool(value)) }
  mutating func encode(_ value: String) throws { appendLeaf(.string(value)) }
  mutating func encode(_ value: Double) throws { appendLeaf(.double(value)) }
  mutating func encode(_ value: Float) throws { appendLeaf(.double(Double(value))) }
  mutating func encode(_ value: Int) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { appendLeaf(.int(value)) }
  mutating func encode(_ value: UInt) throws { appendLeaf(.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { appendLeaf(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { appendLeaf(.unsigned(value)) }
}

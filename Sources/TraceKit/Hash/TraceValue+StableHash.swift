extension TraceValue {
  /// A 64-bit hash of the whole tree that is the same in every process, on every run and on
  /// every machine, so a trace can store it and a later replay can check it.
  ///
  /// ```swift
  /// print(String(TraceValue.int(1).stableHash, radix: 16))  // 7bc759f3a16fd092
  /// ```
  ///
  /// The hash is xxHash64 (seed 0) of the value's canonical bytes, defined recursively
  /// (integers little-endian; `len` is a `UInt64` byte or element count; `str` is `len` followed
  /// by the string's UTF-8 bytes as stored, without Unicode normalization):
  ///
  /// | value | canonical bytes |
  /// |---|---|
  /// | `.null` | `00` |
  /// | `.bool(b)` | `01`, then `00` or `01` |
  /// | `.int(i)` | `02`, then `i` as 8 bytes |
  /// | `.uint(u)` | `03`, then `u` as 8 bytes |
  /// | `.double(d)` | `04`, then `d.bitPattern` as 8 bytes |
  /// | `.string(s)` | `05`, then `str(s)` |
  /// | `.bytes(b)` | `06`, then `len`, then the bytes |
  /// | `.array(a)` | `07`, then `len`, then each element |
  /// | `.object(f)` | `08`, then `len`, then each field as `str(key)` and the value |
  /// | `.enumCase(n, f)` | `09`, then `str(n)`, `len`, then each field as for objects |
  /// | `.reflected(t, v)` | `0A`, then `str(t)`, then `v` |
  ///
  /// The tags and lengths make the encoding prefix-free, so different trees give different byte
  /// strings. Cost: one pass to write the bytes and one pass of xxHash64 (several GB/s).
  public var stableHash: UInt64 {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    writeCanonicalBytes(into: &bytes)
    return XXHash64.hash(bytes)
  }

  /// Appends the canonical bytes that `stableHash` hashes (see there for the layout).
  func writeCanonicalBytes(into bytes: inout [UInt8]) {
    switch self {
    case .null:
      bytes.append(0x00)
    case .bool(let value):
      bytes.append(0x01)
      bytes.append(value ? 1 : 0)
    case .int(let value):
      bytes.append(0x02)
      Self.appendWord(UInt64(bitPattern: value), into: &bytes)
    case .uint(let value):
      bytes.append(0x03)
      Self.appendWord(value, into: &bytes)
    case .double(let value):
      bytes.append(0x04)
      Self.appendWord(value.bitPattern, into: &bytes)
    case .string(let value):
      bytes.append(0x05)
      Self.appendString(value, into: &bytes)
    case .bytes(let value):
      bytes.append(0x06)
      Self.appendWord(UInt64(value.count), into: &bytes)
      bytes.append(contentsOf: value)
    case .array(let elements):
      bytes.append(0x07)
      Self.appendWord(UInt64(elements.count), into: &bytes)
      for element in elements { element.writeCanonicalBytes(into: &bytes) }
    case .object(let fields):
      bytes.append(0x08)
      Self.appendFields(fields, into: &bytes)
    case .enumCase(let name, let fields):
      bytes.append(0x09)
      Self.appendString(name, into: &bytes)
      Self.appendFields(fields, into: &bytes)
    case .reflected(let typeName, let value):
      bytes.append(0x0A)
      Self.appendString(typeName, into: &bytes)
      value.writeCanonicalBytes(into: &bytes)
    }
  }

  private static func appendFields(_ fields: [TraceField], into bytes: inout [UInt8]) {
    appendWord(UInt64(fields.count), into: &bytes)
    for field in fields {
      appendString(field.key, into: &bytes)
      field.value.writeCanonicalBytes(into: &bytes)
    }
  }

  @inline(__always)
  private static func appendWord(_ word: UInt64, into bytes: inout [UInt8]) {
    withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
  }

  private static func appendString(_ string: String, into bytes: inout [UInt8]) {
    var string = string
    string.withUTF8 { utf8 in
      appendWord(UInt64(utf8.count), into: &bytes)
      bytes.append(contentsOf: utf8)
    }
  }
}

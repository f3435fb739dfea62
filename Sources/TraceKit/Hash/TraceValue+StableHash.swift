extension TraceValue {
  /// A 64-bit hash of the whole tree that is the same in every process, on every run and on
  /// every machine, so a trace can store it and a later replay can check it.
  ///
  /// ```swift
  /// print(String(TraceValue.int(1).stableHash, radix: 16))  // 41525b709a47b22b
  /// ```
  ///
  /// The hash is xxHash64 (seed 0) of the value's canonical form: a sequence of little-endian
  /// 64-bit words, defined recursively. A head word holds a tag in its low byte and, for
  /// strings, bytes and containers, a length in the upper 56 bits (`tag | length << 8`). A
  /// string or byte string is its head word followed by its bytes (UTF-8 as stored, without
  /// Unicode normalization) packed into words, the last one padded with zero bytes.
  ///
  /// | value | words |
  /// |---|---|
  /// | `.null` | `0x00` |
  /// | `.bool(b)` | `0x01 \| b << 8` |
  /// | `.int(i)` | `0x02`, `i` |
  /// | `.uint(u)` | `0x03`, `u` |
  /// | `.double(d)` | `0x04`, `d.bitPattern` |
  /// | `.string(s)` | `0x05 \| len << 8`, packed UTF-8 |
  /// | `.bytes(b)` | `0x06 \| len << 8`, packed bytes |
  /// | `.array(a)` | `0x07 \| count << 8`, each element |
  /// | `.object(f)` | `0x08 \| count << 8`, then per field the key as a string and the value |
  /// | `.enumCase(n, f)` | `0x09 \| count << 8`, the name as a string, then the fields |
  /// | `.reflected(t, v)` | `0x0A`, the type name as a string, then `v` |
  ///
  /// Tags and lengths make the form prefix-free, so different trees give different word
  /// sequences. Being whole words, it streams through xxHash64 without a byte buffer: one
  /// pass over the tree, a few nanoseconds per node.
  public var stableHash: UInt64 {
    var hasher = StableHasher()
    combineCanonicalWords(into: &hasher)
    return hasher.finalize()
  }

  func combineCanonicalWords(into hasher: inout StableHasher) {
    switch self {
    case .null:
      hasher.combine(0x00)
    case .bool(let value):
      hasher.combine(value ? 0x101 : 0x001)
    case .int(let value):
      hasher.combine(0x02)
      hasher.combine(UInt64(bitPattern: value))
    case .uint(let value):
      hasher.combine(0x03)
      hasher.combine(value)
    case .double(let value):
      hasher.combine(0x04)
      hasher.combine(value.bitPattern)
    case .string(let value):
      Self.combine(string: value, into: &hasher)
    case .bytes(let value):
      hasher.combine(0x06 | UInt64(value.count) << 8)
      value.withUnsafeBytes { hasher.combinePacked($0) }
    case .array(let elements):
      hasher.combine(0x07 | UInt64(elements.count) << 8)
      for element in elements { element.combineCanonicalWords(into: &hasher) }
    case .object(let fields):
      hasher.combine(0x08 | UInt64(fields.count) << 8)
      Self.combine(fields: fields, into: &hasher)
    case .enumCase(let name, let fields):
      hasher.combine(0x09 | UInt64(fields.count) << 8)
      Self.combine(string: name, into: &hasher)
      Self.combine(fields: fields, into: &hasher)
    case .reflected(let typeName, let value):
      hasher.combine(0x0A)
      Self.combine(string: typeName, into: &hasher)
      value.combineCanonicalWords(into: &hasher)
    }
  }

  private static func combine(fields: [TraceField], into hasher: inout StableHasher) {
    for field in fields {
      combine(string: field.key, into: &hasher)
      field.value.combineCanonicalWords(into: &hasher)
    }
  }

  @inline(__always)
  private static func combine(string: String, into hasher: inout StableHasher) {
    var string = string
    string.withUTF8 { utf8 in
      hasher.combine(0x05 | UInt64(utf8.count) << 8)
      hasher.combinePacked(UnsafeRawBufferPointer(utf8))
    }
  }
}

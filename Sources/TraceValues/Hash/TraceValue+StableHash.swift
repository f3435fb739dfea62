extension TraceValue {
  /// A 64-bit hash of the whole tree that is the same in every process, on every run and on
  /// every machine, so a trace can store it and a later replay can check it.
  ///
  /// ```swift
  /// print(String(TraceValue.int(1).stableHash, radix: 16))  // 41525b709a47b22b
  /// ```
  ///
  /// The hash is Merkle-style: a value's hash is xxHash64 (seed 0) of its canonical words
  /// (little-endian 64-bit words), and a container's words hold the 64-bit hashes of the
  /// containers inside it rather than their contents. So a writer that caches each subtree's
  /// hash re-hashes only the path to a change (see `MerkleHash`).
  ///
  /// A head word holds a tag in its low byte and, for strings, bytes and containers, a length in
  /// the upper 56 bits (`tag | length << 8`). A string or byte string is its head word followed
  /// by its bytes (UTF-8 as stored, without Unicode normalization) packed into words, the last
  /// one padded with zero bytes. Inside a container, a child is written as:
  /// - a scalar, string or byte string: its own words (inline);
  /// - an array, object, enum case or reflected value: its head word, then its hash.
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
  /// | `.array(a)`, `count ≤ 64` | `0x07 \| count << 8`, each element as a child |
  /// | `.array(a)`, `count > 64` | `0x07 \| count << 8`, the hash of each run of 64 |
  /// | `.object(f)` | `0x08 \| count << 8`, per field the key as a string, the value as a child |
  /// | `.enumCase(n, f)` | `0x09 \| count << 8`, the name as a string, then the fields |
  /// | `.reflected(t, v)` | `0x0A`, the type name as a string, then `v` as a child |
  ///
  /// A run of a large array is elements `64k ..< min(64k + 64, count)`; its hash is xxHash64 of
  /// those elements written as children. Changing one element of a 10,000-element array
  /// re-hashes that element, its run (64 children) and the array (157 run hashes), not 10,000.
  ///
  /// Tags and lengths make the words prefix-free, so different trees give different word
  /// sequences (and, up to 64-bit collisions of xxHash64, different hashes). Scalars and
  /// strings hash exactly as their words, one xxHash64 each.
  public var stableHash: UInt64 {
    MerkleHash.hash(self)
  }
}

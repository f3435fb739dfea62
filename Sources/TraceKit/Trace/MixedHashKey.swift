/// A dictionary key whose hash is mixed once, when it is made (`ByteHash.Mixer`): a table
/// looking it up adds its seed to that hash, not a `Hasher` round over the key's contents.
/// `StringListKey`, `StringBytesKey` and `StringListBitsKey` are such keys; each compares its
/// contents in its own way.
///
/// ```swift
/// StringBytesKey("count").hashValue == StringBytesKey("count").hashValue  // true
/// ```
protocol MixedHashKey: Hashable {
  /// The key's hash, mixed when the key was made.
  var mixedHash: UInt64 { get }
}

extension MixedHashKey {
  func hash(into hasher: inout Hasher) {
    hasher.combine(mixedHash)
  }

  /// The hash as it is (already mixed), with the table's seed: no `Hasher` round.
  func _rawHashValue(seed: Int) -> Int {
    Int(truncatingIfNeeded: mixedHash) ^ seed
  }
}

/// Where the words of a stable hash go: straight into a hasher, or into a buffer that a level
/// of `HashingEncoding` hashes once it knows its head word (its count comes last).
protocol StableWordSink {
  mutating func combine(_ word: UInt64)
}

extension StableWordSink {
  /// Feeds bytes packed into little-endian words, the last one padded with zero bytes.
  mutating func combinePacked(_ bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    var offset = 0
    while offset + 8 <= count {
      combine(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      offset += 8
    }
    if offset < count {
      // Most keys and short strings end here: copy the 1–7 bytes in one go, zero-padded.
      var tail: UInt64 = 0
      withUnsafeMutableBytes(of: &tail) { word in
        word.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<count]))
      }
      combine(UInt64(littleEndian: tail))
    }
  }
}

/// Words kept until their head word is known.
struct StableWordBuffer: StableWordSink {
  var words: [UInt64] = []

  @inline(__always)
  mutating func combine(_ word: UInt64) { words.append(word) }
}

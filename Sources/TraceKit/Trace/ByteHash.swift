import Foundation

/// A quick hash of stored bytes, for tables that find a line's action again by its bytes
/// (typed replay's decoded actions, `export`'s written ones). Not the state hash: it is not
/// part of the format.
///
/// ```swift
/// [UInt8]("{}".utf8).withUnsafeBytes(ByteHash.fnv1a)  // 0x…: 64-bit FNV-1a
/// ```
package enum ByteHash {
  /// 64-bit FNV-1a of the bytes.
  package static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }

  /// A hash of the bytes' count and the bytes read eight at a time (the last word overlapping
  /// the one before it), mixed as `Mixer` mixes words and finished with `fmix64`: about a quarter of `fnv1a`'s
  /// instructions on an action's JSON, which FNV-1a reads byte by byte.
  package static func words(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var state: UInt64 = 0x243F_6A88_85A3_08D3
    @inline(__always) func mix(_ word: UInt64) {
      state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
      state = (state << 29) | (state >> 35)
    }
    let count = bytes.count
    // Mixed as a word of its own: xored into the first word, a count and a first byte that
    // differ in the same bits cancelled out.
    mix(UInt64(count))
    if count >= 8 {
      var offset = 0
      while offset + 8 <= count {
        mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      if offset < count { mix(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) }
    } else {
      var tail: UInt64 = 0
      for byte in bytes { tail = tail << 8 | UInt64(byte) }
      mix(tail)
    }
    return fmix64(state)
  }

  /// MurmurHash3's finalizer: every bit of the result depends on every bit of `value`.
  @inline(__always)
  static func fmix64(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value &*= 0xFF51_AFD7_ED55_8CCD
    value ^= value >> 33
    value &*= 0xC4CE_B9FE_1A85_EC53
    value ^= value >> 33
    return value
  }

  /// A 64-bit multiply-and-rotate hash of words and strings, finished with MurmurHash3's
  /// `fmix64` so that every bit of the result (a dictionary buckets by the low ones) depends on
  /// every input bit.
  struct Mixer {
    private var state: UInt64 = 0x243F_6A88_85A3_08D3

    mutating func mix(_ word: UInt64) {
      state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
      state = (state << 29) | (state >> 35)
    }

    mutating func mix(_ string: String) {
      let mixed: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
        mix(UnsafeRawBufferPointer(bytes))
      }
      if mixed == nil { Array(string.utf8).withUnsafeBytes { mix($0) } }
    }

    private mutating func mix(_ raw: UnsafeRawBufferPointer) {
      mix(UInt64(raw.count))
      var offset = 0
      while offset + 8 <= raw.count {
        mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      if offset < raw.count {
        var tail: UInt64 = 0
        for index in offset..<raw.count {
          tail = tail << 8 | UInt64(raw[index])
        }
        mix(tail)
      }
    }

    /// Mixes how many `elements` there are and their bits, word by word: for elements made of
    /// whole words whose bits name what they refer to (strings, `TracePath`s).
    mutating func mixBits<Element>(of elements: [Element]) {
      mix(UInt64(elements.count))
      elements.withUnsafeBytes { raw in
        var offset = 0
        while offset + 8 <= raw.count {
          mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          offset += 8
        }
      }
    }

    func finish() -> UInt64 {
      ByteHash.fmix64(state)
    }
  }

  /// Whether two strings have the same UTF-8 bytes (`==` on `String` compares by canonical
  /// equivalence: "caf\u{E9}" equals "cafe\u{301}").
  static func sameBytes(_ a: String, _ b: String) -> Bool {
    let same = a.utf8.withContiguousStorageIfAvailable { a in
      b.utf8.withContiguousStorageIfAvailable { b in
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
    return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
  }
}

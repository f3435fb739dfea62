import Foundation

/// A list of strings as a dictionary key by the strings' own bits (a small string's bytes, a
/// large one's count and storage): `TraceWriter` finds a step's changed-path set under it
/// before it reads the strings' bytes (`StringListKey`). A step's changed paths are the texts
/// the line encoder keeps for its paths, the same strings step after step, so their bits find
/// the set with two words a string hashed and compared, not every byte.
///
/// Equal bits are equal bytes: the key holds its strings, so a storage its bits name is
/// theirs and does not change. Equal bytes in other bits (a new string of the same text) only
/// miss, and the caller then looks the list up by its bytes.
///
/// ```swift
/// let texts = ["todos[id: 1].title", "count"]
/// StringListBitsKey(texts) == StringListBitsKey(texts)  // true: the same strings
/// ```
struct StringListBitsKey: MixedHashKey {
  let strings: [String]
  /// The mixed hash of the strings' bits, computed once.
  let mixedHash: UInt64

  init(_ strings: [String]) {
    self.strings = strings
    var mixer = ByteHash.Mixer()
    mixer.mixBits(of: strings)
    mixedHash = mixer.finish()
  }

  static func == (lhs: StringListBitsKey, rhs: StringListBitsKey) -> Bool {
    lhs.mixedHash == rhs.mixedHash && sameBits(lhs.strings, rhs.strings)
  }

  /// Whether two lists hold elements of the same bits, in order. For elements without padding
  /// whose bits name what they refer to (strings, `TracePath`s: a reference to their
  /// components): equal bits are then equal values, as long as the caller holds both lists.
  static func sameBits<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.withUnsafeBytes { left in
      rhs.withUnsafeBytes { right in
        guard let left = left.baseAddress, let right = right.baseAddress else { return true }
        return memcmp(left, right, lhs.count * MemoryLayout<Element>.stride) == 0
      }
    }
  }
}

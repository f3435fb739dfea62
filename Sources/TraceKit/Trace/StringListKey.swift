/// A list of strings as a dictionary key that is cheap to hash and tells lists apart by their
/// bytes: `TraceWriter` numbers the changed-path sets of its steps under it.
///
/// `[String]`'s own hash runs every string through SipHash (about 1,000 instructions a step
/// on a composed app, whose sets change from step to step); this one reads the strings eight
/// bytes at a time. Strings are compared byte for byte, not by canonical equivalence: two sets
/// stored as different JSON text are different rows.
///
/// ```swift
/// StringListKey(["a", "b"]) == StringListKey(["a", "b"])               // true
/// StringListKey(["caf\u{E9}"]) == StringListKey(["cafe\u{301}"])       // false
/// ```
struct StringListKey: MixedHashKey {
  let strings: [String]
  /// The mixed hash of the strings, computed once.
  let mixedHash: UInt64

  init(_ strings: [String]) {
    self.strings = strings
    var mixer = ByteHash.Mixer()
    mixer.mix(UInt64(strings.count))
    for string in strings { mixer.mix(string) }
    mixedHash = mixer.finish()
  }

  static func == (lhs: StringListKey, rhs: StringListKey) -> Bool {
    guard lhs.mixedHash == rhs.mixedHash, lhs.strings.count == rhs.strings.count else { return false }
    for index in lhs.strings.indices {
      guard ByteHash.sameBytes(lhs.strings[index], rhs.strings[index]) else { return false }
    }
    return true
  }
}

/// A string as a dictionary key that is cheap to hash and tells strings apart by their bytes:
/// `TraceWriter` finds the ids of its steps' action paths under it before it asks the table of
/// `String` keys, whose hash runs the text through SipHash (about 400 instructions a path).
///
/// Equal bytes are equal strings, so a key found gives the id the `String` table gave that
/// string; a string canonically equal to a known one but in other bytes is not found here, and
/// the `String` table, which compares by canonical equivalence, gives it its id.
///
/// ```swift
/// StringBytesKey("todos.toggle") == StringBytesKey("todos.toggle")   // true
/// StringBytesKey("caf\u{E9}") == StringBytesKey("cafe\u{301}")       // false
/// ```
struct StringBytesKey: MixedHashKey {
  let string: String
  /// The mixed hash of the string's bytes, computed once.
  let mixedHash: UInt64

  init(_ string: String) {
    self.string = string
    var mixer = ByteHash.Mixer()
    mixer.mix(string)
    mixedHash = mixer.finish()
  }

  static func == (lhs: StringBytesKey, rhs: StringBytesKey) -> Bool {
    lhs.mixedHash == rhs.mixedHash && ByteHash.sameBytes(lhs.string, rhs.string)
  }
}

import TraceValues

/// The last two strings kept, each with a value, found by the strings' bits (`sameBits`: a
/// short string is its bits) before, when asked, their bytes. A hit moves nothing: keys used in
/// turn (a counter's `plus` and `minus`) are each found where they are. A new key replaces the
/// entry used less lately.
///
/// ```swift
/// var recent = LastTwo(empty: 0)
/// recent.keep("plus", 1)
/// recent.keep("minus", 2)
/// recent.entry(of: "plus", byBytes: false).map { recent[$0] }   // 1
/// recent.keep("reset", 3)                                        // replaces "minus"
/// recent.entry(of: "minus", byBytes: true)                       // nil
/// ```
struct LastTwo<Value> {
  private var keys = ("", "")
  private var values: (Value, Value)
  /// How many entries hold a key (0, 1 or 2).
  private var count = 0
  /// The entry used last: the other is replaced.
  private var newest = 0

  /// Two empty entries, whose values are `empty` until a key is kept.
  init(empty: Value) {
    values = (empty, empty)
  }

  /// The entry (0 or 1) that holds `key`, found by both keys' bits, then (with `byBytes`) by
  /// both keys' bytes; it becomes the entry used last.
  mutating func entry(of key: String, byBytes: Bool) -> Int? {
    if count > 0 && sameBits(keys.0, key) {
      newest = 0
    } else if count > 1 && sameBits(keys.1, key) {
      newest = 1
    } else if byBytes && count > 0 && ByteHash.sameBytes(keys.0, key) {
      newest = 0
    } else if byBytes && count > 1 && ByteHash.sameBytes(keys.1, key) {
      newest = 1
    } else {
      return nil
    }
    return newest
  }

  /// The value of `entry` (0 or 1, as `entry(of:byBytes:)` returned it).
  subscript(entry: Int) -> Value {
    entry == 0 ? values.0 : values.1
  }

  /// Keeps `key` with `value` in the entry used less lately (an empty one first), which
  /// becomes the entry used last.
  @inline(__always)
  mutating func keep(_ key: String, _ value: Value) {
    if count == 0 || (count == 2 && newest == 1) {
      (keys.0, values.0, newest) = (key, value, 0)
    } else {
      (keys.1, values.1, newest) = (key, value, 1)
    }
    count = min(count + 1, 2)
  }
}

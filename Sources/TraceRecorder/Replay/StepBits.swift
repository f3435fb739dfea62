/// A set of step numbers as one bit a step, asked before a table keyed by step: most steps
/// start and cancel no effect, and hashing the step number for a `Dictionary` look-up cost
/// more than the rest of it. Exact for the table it stands before: a step it does not hold
/// is not a key there; a step it cannot hold (negative, or past `limit`) it may hold.
///
/// ```swift
/// var steps = StepBits()
/// steps.insert(7)
/// steps.mayContain(7)  // true
/// steps.mayContain(8)  // false
/// ```
struct StepBits {
  private var words: [UInt64] = []
  /// Whether a step past `limit` was inserted: every such step may then be held.
  private var beyondLimit = false
  /// Steps held as bits: 2^26, 8 MiB of words at most, whatever a damaged trace says.
  static let limit = 1 << 26

  mutating func insert(_ step: Int) {
    guard step >= 0 else { return }
    guard step < Self.limit else {
      beyondLimit = true
      return
    }
    let word = step >> 6
    if word >= words.count {
      words.append(contentsOf: repeatElement(0, count: word + 1 - words.count))
    }
    words[word] |= 1 << UInt64(step & 63)
  }

  /// False only when `step` was not inserted.
  func mayContain(_ step: Int) -> Bool {
    guard step >= 0 else { return true }
    guard step < Self.limit else { return beyondLimit }
    let word = step >> 6
    return word < words.count && words[word] & (1 << UInt64(step & 63)) != 0
  }
}

import ComposableCore

/// The seeded choices of a scripted session: the same seed makes the same choices.
///
/// ```swift
/// var random = DemoRandom(seed: 1)
/// random.int(in: 1...6)               // the same number on every run with seed 1
/// random.pick(["a", "b"])             // "a" or "b"
/// ```
struct DemoRandom {
  private var generator: SplitMix64

  init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  /// A number in the range.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &generator)
  }

  /// `true` with the given chance.
  mutating func chance(percent: Int) -> Bool {
    int(in: 1...100) <= percent
  }

  /// One of the elements (`nil` for an empty collection).
  mutating func pick<C: Collection>(_ elements: C) -> C.Element? where C.Index == Int {
    guard !elements.isEmpty else { return nil }
    return elements[elements.startIndex + int(in: 0...(elements.count - 1))]
  }

  /// One of the choices, each as likely as its weight (weights below 1 never win).
  mutating func weighted<T>(_ choices: [(weight: Int, value: T)]) -> T? {
    let total = choices.reduce(0) { $0 + max(0, $1.weight) }
    guard total > 0 else { return nil }
    var roll = int(in: 1...total)
    for choice in choices where choice.weight > 0 {
      if roll <= choice.weight { return choice.value }
      roll -= choice.weight
    }
    return nil
  }

  /// A pause of up to `longest`, in whole milliseconds, at least 20 ms.
  mutating func pause(upTo longest: Duration) -> Duration {
    let milliseconds = Int(longest.components.seconds) * 1000
      + Int(longest.components.attoseconds / 1_000_000_000_000_000)
    return .milliseconds(int(in: 20...max(20, milliseconds)))
  }

  /// The next raw 64 bits (seeds the session's UUIDs).
  mutating func next() -> UInt64 {
    generator.next()
  }
}

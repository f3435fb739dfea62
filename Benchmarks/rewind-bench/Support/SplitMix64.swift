/// A seeded random number generator, so every run seeks to the same steps.
///
/// ```swift
/// var random = SplitMix64(seed: 7)
/// Int.random(in: 0..<10, using: &random)  // the same number in every run
/// ```
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

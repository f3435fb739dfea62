/// Mixes two integers into one well-spread hash without a `Hasher` round: for hashes made of
/// parts that are already hashes or identities (a navigation step's key path type, an id's
/// kept hash), which the store makes on every cancellation id under a navigation path.
///
/// The result is no seed-randomized hash on its own: the tables that bucket by it fold their
/// seed in, and its inputs come from the process (types, hashes made with a `Hasher`), not
/// from input data.
///
/// ```swift
/// HashMixing.mix(1, 2) == HashMixing.mix(1, 2)  // true
/// HashMixing.mix(1, 2) == HashMixing.mix(2, 1)  // false (in general)
/// ```
@usableFromInline
enum HashMixing {
  /// SplitMix64's finalizer over `a` rotated and `b`.
  @inlinable
  static func mix(_ a: Int, _ b: Int) -> Int {
    var x = UInt64(UInt(bitPattern: a))
    x = ((x << 23 | x >> 41) ^ UInt64(UInt(bitPattern: b))) &+ 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: x ^ (x >> 31))
  }
}

import Foundation
import Synchronization

/// The identity of one running effect task in a store.
///
/// A UUID-shaped value from a SplitMix64 generator seeded once per process: Foundation's
/// `UUID()` reads `/dev/urandom` on every call on Linux (3–4 µs), which a store that starts an
/// effect per action cannot afford.
///
/// ```swift
/// let id = EffectID.next()
/// id.uuid.uuidString  // e.g. "5F0C…-4…"
/// ```
@usableFromInline
package struct EffectID: Hashable, Sendable, CustomStringConvertible {
  /// A version-4-shaped UUID.
  @usableFromInline package let uuid: UUID

  package init(uuid: UUID) {
    self.uuid = uuid
  }

  /// The next id from the process-wide generator.
  @usableFromInline
  package static func next() -> EffectID {
    let (high, low) = generator.withLock { state in
      (state.next(), state.next())
    }
    return EffectID(uuid: uuidFrom(high: high, low: low))
  }

  @usableFromInline package var description: String { uuid.uuidString }

  /// What a dictionary buckets the id by: its two words folded together with the table's seed,
  /// instead of its 16 bytes through a `Hasher` (about 200 instructions; the core looks a
  /// running effect up by id when it starts, ends and is cancelled). The bits of a generated id
  /// are already well mixed (SplitMix64); `hash(into:)` still hashes every byte.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    let (high, low) = words
    return Int(truncatingIfNeeded: high &* 0x9E37_79B9_7F4A_7C15 ^ low) ^ seed
  }

  /// The id's 16 bytes as two words.
  @inlinable
  var words: (UInt64, UInt64) {
    withUnsafeBytes(of: uuid.uuid) { bytes in
      (
        bytes.loadUnaligned(as: UInt64.self),
        bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      )
    }
  }

  private static let generator = Mutex(SplitMix64(seed: UInt64.random(in: .min ... .max)))

  private static func uuidFrom(high: UInt64, low: UInt64) -> UUID {
    // Version 4, variant 10xx: the bits a random UUID carries.
    let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
    let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    func byte(_ value: UInt64, _ index: Int) -> UInt8 {
      UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * index))
    }
    return UUID(uuid: (
      byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
      byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
      byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
      byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
    ))
  }
}

/// Steele, Lea and Flood's SplitMix64: tiny state, passes BigCrush, fine for ids.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

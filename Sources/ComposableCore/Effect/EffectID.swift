import Foundation
import Synchronization

/// The identity of one running effect task in a store.
///
/// A time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, the version, a
/// 12-bit counter, the variant and 62 random bits from a SplitMix64 generator seeded once per
/// process. The counter keeps the ids one process makes strictly increasing, also within a
/// millisecond and when the clock steps back, so a trace's `effects` table, whose primary key is
/// the id's text, is appended to instead of filled at random places (a random version-4 id cost
/// its insert about 2.5 times as much). Foundation's `UUID()` reads `/dev/urandom` on every call
/// on Linux (3–4 µs), which a store that starts an effect per action cannot afford.
///
/// ```swift
/// let id = EffectID.next()
/// print(id)  // e.g. 019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6 (then …-7001-…, …)
/// ```
@usableFromInline
package struct EffectID: Hashable, Sendable, CustomStringConvertible {
  /// A version-7 UUID (or, for an id read from an older trace, any UUID).
  @usableFromInline package let uuid: UUID

  package init(uuid: UUID) {
    self.uuid = uuid
  }

  /// The next id from the process-wide generator.
  @usableFromInline
  package static func next() -> EffectID {
    // A thread that read an earlier millisecond but advances the generator later still gets
    // a larger id (the generator never goes back).
    generator.next(milliseconds: unixMilliseconds())
  }

  @usableFromInline package var description: String { uuid.uuidString }

  /// What a dictionary buckets the id by: its two words folded together with the table's seed,
  /// instead of its 16 bytes through a `Hasher` (about 200 instructions; the core looks a
  /// running effect up by id when it starts, ends and is cancelled). A dictionary buckets by
  /// the low bits, so they come from the random bytes 9–15 (the low word byte-swapped: loaded
  /// as it is, its low byte holds the fixed variant bits), and the time and counter of the high
  /// word are folded in above them; `hash(into:)` still hashes every byte.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    let (high, low) = words
    return Int(truncatingIfNeeded: high &* 0x9E37_79B9_7F4A_7C15 ^ low.byteSwapped) ^ seed
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

  private static let generator = Generator(seed: UInt64.random(in: .min ... .max))

  /// The wall clock in milliseconds since 1970 (0 before it), as the kernel last stored it
  /// (a few milliseconds coarse): read once per effect on the main actor, the coarse clock
  /// costs about 5 ns against 24 ns for the precise one here, and the counter keeps the ids
  /// in order within a tick. RFC 9562 (6.1) lets an id's time be less precise than a
  /// millisecond.
  private static func unixMilliseconds() -> UInt64 {
    var time = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_REALTIME_COARSE, &time)
    #else
      clock_gettime(CLOCK_REALTIME, &time)
    #endif
    guard time.tv_sec >= 0 else { return 0 }
    return UInt64(time.tv_sec) &* 1_000 &+ UInt64(time.tv_nsec / 1_000_000)
  }

  /// Makes version-7 ids from the milliseconds it is given, each larger than the one before,
  /// from any thread without a lock: the last time and counter is one atomic word that each id
  /// advances by a compare-and-exchange, and the random bits are SplitMix64's outputs for a
  /// state that each id advances by an atomic add (the same sequence as `SplitMix64.next()`).
  ///
  /// ```swift
  /// let generator = EffectID.Generator(seed: 1)
  /// generator.next(milliseconds: 0x0123_4567_89AB)  // 01234567-89AB-7000-…
  /// generator.next(milliseconds: 0x0123_4567_89AB)  // 01234567-89AB-7001-…
  /// generator.next(milliseconds: 0x0123_4567_89AA)  // 01234567-89AB-7002-… (clock went back)
  /// ```
  package final class Generator: Sendable {
    /// SplitMix64's state: each id adds its increment and mixes the sum.
    private let random: Atomic<UInt64>
    /// The time and counter of the last id: `milliseconds << 12 | counter`. Adding 1 carries a
    /// full counter into the milliseconds, as RFC 9562 (6.2, method 1) allows.
    private let last = Atomic<UInt64>(0)

    package init(seed: UInt64) {
      random = Atomic(seed)
    }

    /// The next id for a clock reading `milliseconds` (only its low 48 bits are stored).
    package func next(milliseconds: UInt64) -> EffectID {
      let now = (milliseconds & 0xFFFF_FFFF_FFFF) << 12
      // A new millisecond restarts the counter at 0; the same one, or a clock that stepped
      // back, counts on from the last id.
      var current = last.load(ordering: .relaxed)
      while true {
        let next = now > current ? now : current &+ 1
        let (exchanged, original) = last.compareExchange(
          expected: current, desired: next, ordering: .relaxed)
        if exchanged {
          current = next
          break
        }
        current = original
      }
      let high = (current >> 12) << 16 | 0x7000 | (current & 0xFFF)
      let state = random.wrappingAdd(SplitMix64.increment, ordering: .relaxed).newValue
      // Variant 10: the two top bits of byte 8.
      let low = (SplitMix64.mix(state) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
      return EffectID(uuid: EffectID.uuidFrom(high: high, low: low))
    }
  }

  /// The UUID whose bytes are `high` then `low`, most significant byte first: the two words,
  /// big-endian, are its sixteen bytes. A `UUID` is its `uuid_t` (its one stored property,
  /// sixteen bytes), so the words become the UUID in place: `UUID(uuid:)` is not inlinable
  /// from Foundation, and its sixteen byte arguments cost about 110 instructions an id
  /// (shifted out of the words and pushed on the stack for the call).
  private static func uuidFrom(high: UInt64, low: UInt64) -> UUID {
    unsafeBitCast((high.bigEndian, low.bigEndian), to: UUID.self)
  }
}

/// Steele, Lea and Flood's SplitMix64: tiny state, passes BigCrush, fine for ids.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  /// What each output adds to the state.
  static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

  package mutating func next() -> UInt64 {
    state &+= Self.increment
    return Self.mix(state)
  }

  /// The output for a state.
  static func mix(_ state: UInt64) -> UInt64 {
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

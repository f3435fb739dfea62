import ComposableCore
import Foundation
import TraceKit

/// Serves the dependency values a step read while it was recorded, in the recorded order:
/// `uuid`, `date`, `withRandomNumberGenerator` and `continuousClock.now`.
///
/// Installed once for a whole replay, loaded with each step's reads. A reducer that asks for
/// more values than the step recorded gets values that let it return — never zeros, on which
/// `Int.random(in:)` would loop for ever: fresh random-looking bits from a fixed seed, the
/// last date, the last clock reading — and `DependencyCheck` reports the step; the replay
/// ends there.
///
/// ```swift
/// let served = ServedDependencies()
/// served.load([DependencyRead(key: "uuid", value: .string(text))])
/// withDependencies { served.install(into: &$0) } operation: { … }  // uuid() returns it
/// ```
///
/// One replay thread uses it at a time (the generators it installs are `Sendable` only in
/// name: replay calls them on its own thread).
final class ServedDependencies: @unchecked Sendable {
  // One thread only, and a replay loads them every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var uuids: [TraceValue] = []
  @exclusivity(unchecked) private var dates: [TraceValue] = []
  @exclusivity(unchecked) private var randoms: [TraceValue] = []
  @exclusivity(unchecked) private var clocks: [TraceValue] = []
  @exclusivity(unchecked) private var uuidIndex = 0
  @exclusivity(unchecked) private var dateIndex = 0
  @exclusivity(unchecked) private var randomIndex = 0
  @exclusivity(unchecked) private var clockIndex = 0
  /// Whether the last step loaded any value.
  @exclusivity(unchecked) private var isLoaded = false
  /// What a reducer gets past the recorded values.
  @exclusivity(unchecked) private var overflow = SplitMix64(seed: 0x5245_5749_4E44)
  @exclusivity(unchecked) private var lastDate = Date(timeIntervalSinceReferenceDate: 0)
  @exclusivity(unchecked) private var lastClock = Duration.zero

  /// Serves `reads` next (the reads of the step about to be reduced).
  func load(_ reads: [DependencyRead]) {
    // Most steps read nothing, after a step that read nothing.
    if reads.isEmpty && !isLoaded {
      uuidIndex = 0
      dateIndex = 0
      randomIndex = 0
      clockIndex = 0
      return
    }
    isLoaded = !reads.isEmpty
    uuids.removeAll(keepingCapacity: true)
    dates.removeAll(keepingCapacity: true)
    randoms.removeAll(keepingCapacity: true)
    clocks.removeAll(keepingCapacity: true)
    uuidIndex = 0
    dateIndex = 0
    randomIndex = 0
    clockIndex = 0
    for read in reads {
      switch read.key {
      case "uuid": uuids.append(read.value)
      case "date": dates.append(read.value)
      case "random": randoms.append(read.value)
      case "clock": clocks.append(read.value)
      default: continue
      }
    }
  }

  func install(into values: inout DependencyValues) {
    values.uuid = UUIDGenerator { [self] in nextUUID() }
    values.date = DateGenerator { [self] in nextDate() }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(next: { [self] in nextRandom() })
    values.continuousClock = ServedClock(served: self)
  }

  private func nextUUID() -> UUID {
    if uuidIndex < uuids.count {
      defer { uuidIndex += 1 }
      if case .string(let text) = uuids[uuidIndex], let uuid = UUID(uuidString: text) {
        return uuid
      }
    }
    let (high, low) = (overflow.next(), overflow.next())
    return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
      UUID(uuid: bytes.load(as: uuid_t.self))
    }
  }

  private func nextDate() -> Date {
    if dateIndex < dates.count {
      defer { dateIndex += 1 }
      if let date = Self.date(dates[dateIndex]) {
        lastDate = date
        return date
      }
    }
    return lastDate
  }

  private func nextRandom() -> UInt64 {
    if randomIndex < randoms.count {
      defer { randomIndex += 1 }
      switch randoms[randomIndex] {
      case .int(let value): return UInt64(bitPattern: value)
      case .uint(let value): return value
      default: break
      }
    }
    return overflow.next()
  }

  fileprivate func nextClockOffset() -> Duration {
    if clockIndex < clocks.count {
      defer { clockIndex += 1 }
      switch clocks[clockIndex] {
      case .double(let seconds): lastClock = .seconds(seconds)
      case .int(let seconds): lastClock = .seconds(seconds)
      default: break
      }
    }
    return lastClock
  }

  /// A recorded `date` value: seconds since 2001 (a number), or ISO 8601 text.
  static func date(_ value: TraceValue) -> Date? {
    switch value {
    case .double(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
    case .int(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
    case .string(let text): return try? Date(text, strategy: .iso8601)
    default: return nil
    }
  }
}

/// The clock replay serves: its `now` is the recorded reading of the step (the time since the
/// first reading, as recorded). Sleeping happens in effects, which replay does not run.
struct ServedClock: Clock {
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  let served: ServedDependencies

  var now: Instant {
    Instant(offset: served.nextClockOffset())
  }

  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
  }
}

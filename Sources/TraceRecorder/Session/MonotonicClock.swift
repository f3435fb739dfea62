#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds from a monotonic clock: one `clock_gettime`, cheaper than `ContinuousClock.now`
/// arithmetic on the hot path.
///
/// ```swift
/// let start = MonotonicClock.nanoseconds()
/// let elapsed = MonotonicClock.nanoseconds() - start
/// ```
@usableFromInline
enum MonotonicClock {
  @inlinable
  static func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds from a monotonic clock: one `clock_gettime`, cheaper than `ContinuousClock.now`
/// arithmetic on the hot path (a root core times each instrumented step's reducer with it).
///
/// ```swift
/// let start = MonotonicClock.nanoseconds()
/// let elapsed = MonotonicClock.nanoseconds() - start
/// ```
@usableFromInline
package enum MonotonicClock {
  @inlinable
  package static func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}

import Glibc

/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`: not moved by wall-clock changes).
enum Stopwatch {
  static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): what the thread itself spent,
  /// without the time other processes on the shared machine took from it.
  static func threadCPUNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Runs `body` and returns how long it took, in nanoseconds.
  static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return Double(now() - start)
  }
}

import Locking

/// A clock whose sleeps return at once, moving its time to their deadline: for tests and
/// previews that must not wait but do not care how long a feature would have waited.
///
/// ```swift
/// let clock = ImmediateClock()
/// try await clock.sleep(for: .seconds(5))  // returns right away
/// clock.now                                // 5 seconds after the start
/// ```
public final class ImmediateClock: Clock, Sendable {
  /// A point in the clock's time: an offset from its start.
  public typealias Instant = OffsetInstant

  private let current: Lock<Instant>

  /// A clock at `now` (offset zero by default).
  public init(now: Instant = Instant()) {
    current = Lock(now)
  }

  public var now: Instant {
    current.withLock { $0 }
  }

  public var minimumResolution: Duration { .zero }

  /// Moves time to `deadline` (never back) and returns, after letting other tasks run once;
  /// throws `CancellationError` in a cancelled task.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = Swift.max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}

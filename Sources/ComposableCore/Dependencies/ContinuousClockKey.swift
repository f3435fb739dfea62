/// A clock that reports an issue whenever it is used: the test value of `continuousClock`.
///
/// ```swift
/// // In a test that sleeps, override the clock:
/// $0.continuousClock = TestClock()
/// ```
public struct UnimplementedClock: Clock {
  public typealias Duration = Swift.Duration
  public typealias Instant = ContinuousClock.Instant

  private let name: String
  private let base = ContinuousClock()

  /// A clock whose use is reported under `name`.
  public init(name: String = "\\.continuousClock") {
    self.name = name
  }

  public var now: Instant {
    base.now
  }

  public var minimumResolution: Duration {
    base.minimumResolution
  }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    reportUnimplemented(name, fix: "$0.continuousClock = TestClock()")
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var testValue: any Clock<Duration> { UnimplementedClock() }
}

extension DependencyValues {
  /// The clock effects sleep on. Live: `ContinuousClock`. In tests: must be overridden.
  ///
  /// Read by a reducer while a store's instrument listens, it reports each `now`.
  public var continuousClock: any Clock<Duration> {
    get {
      ReducingContext.reportingIfReading(self[ContinuousClockKey.self])
    }
    set { self[ContinuousClockKey.self] = newValue }
  }
}

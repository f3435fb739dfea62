import ComposableCore
import FixtureSupport

/// Knows which days have climbing records.
///
/// ```swift
/// @Dependency(\.climbLogClient) var climbLogClient
/// try await climbLogClient.climbedDays(CalendarMonth(year: 2026, month: 5))  // [3, 5, 12, …]
/// ```
public struct ClimbLogClient: Sendable {
  /// The days of a month with records, ascending.
  public var climbedDays: @Sendable (_ month: CalendarMonth) async throws -> [Int]

  public init(climbedDays: @escaping @Sendable (_ month: CalendarMonth) async throws -> [Int]) {
    self.climbedDays = climbedDays
  }
}

extension ClimbLogClient {
  /// The live client: a seeded climbing log after a short wait on the clock dependency.
  public static var live: ClimbLogClient {
    ClimbLogClient { month in
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(120))
      return sampleDays(in: month)
    }
  }

  /// The test client: the same log, at once.
  public static var immediate: ClimbLogClient {
    ClimbLogClient { month in sampleDays(in: month) }
  }

  /// The seeded log: a climber who goes about twice a week, on days that depend on the month.
  ///
  /// ```swift
  /// ClimbLogClient.sampleDays(in: CalendarMonth(year: 2026, month: 5))
  /// // [1, 3, 4, 8, 10, 11, 15, 17, 18, 22, 24, 25, 29, 31]
  /// ```
  public static func sampleDays(in month: CalendarMonth) -> [Int] {
    let offset = (month.year * 12 + month.month) % 7
    return (1...month.dayCount).filter { day in
      let weekday = (day + offset) % 7
      return weekday == 0 || weekday == 2 || weekday == 3
    }
  }
}

enum ClimbLogClientKey: DependencyKey {
  static var liveValue: ClimbLogClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: ClimbLogClient { .live }
}

extension DependencyValues {
  /// The climbing log. Live: `ClimbLogClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var climbLogClient: ClimbLogClient {
    get { self[ClimbLogClientKey.self] }
    set { self[ClimbLogClientKey.self] = newValue }
  }
}

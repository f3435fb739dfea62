import ComposableCore
import FixtureSupport
import Foundation
import Synchronization

/// Stores the children's schedules.
///
/// ```swift
/// @Dependency(\.scheduleRepository) var scheduleRepository
/// try await scheduleRepository.fetchDay(now).map(\.title)  // ["School", "Piano", …]
/// ```
public struct ScheduleRepository: Sendable {
  /// The schedules of the UTC day a date falls on, by start time.
  public var fetchDay: @Sendable (_ date: Date) async throws -> [Schedule]
  /// Stores a new schedule and returns it as stored.
  public var add: @Sendable (_ schedule: Schedule) async throws -> Schedule

  public init(
    fetchDay: @escaping @Sendable (_ date: Date) async throws -> [Schedule],
    add: @escaping @Sendable (_ schedule: Schedule) async throws -> Schedule
  ) {
    self.fetchDay = fetchDay
    self.add = add
  }
}

extension ScheduleRepository {
  /// The sample family's routine on the day of `date`: the same every day.
  ///
  /// ```swift
  /// ScheduleRepository.sampleDay(Date(timeIntervalSince1970: 0)).map(\.title)
  /// // ["School", "Kindergarten", "Piano", "Swimming"]
  /// ```
  public static func sampleDay(_ date: Date) -> [Schedule] {
    let start = CalendarDay(date).startDate
    func at(_ hour: Int, _ minute: Int) -> Date {
      start.addingTimeInterval(TimeInterval(hour * 3600 + minute * 60))
    }
    return [
      Schedule(
        id: UUID(fixture: 1, namespace: 0x5C), childID: "child-1", title: "School",
        startsAt: at(8, 40)),
      Schedule(
        id: UUID(fixture: 2, namespace: 0x5C), childID: "child-2", title: "Kindergarten",
        startsAt: at(9, 0)),
      Schedule(
        id: UUID(fixture: 3, namespace: 0x5C), childID: "child-1", title: "Piano",
        startsAt: at(15, 30)),
      Schedule(
        id: UUID(fixture: 4, namespace: 0x5C), childID: "child-2", title: "Swimming",
        startsAt: at(16, 0)),
    ]
  }

  /// The live repository: the sample routine plus what was added, in memory, each call after a
  /// short wait on the clock dependency.
  public static var live: ScheduleRepository {
    let added = Mutex<[Schedule]>([])
    return ScheduleRepository(
      fetchDay: { date in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(200))
        let day = CalendarDay(date)
        let extra = added.withLock { $0 }.filter { CalendarDay($0.startsAt) == day }
        return (sampleDay(date) + extra).sorted { $0.startsAt < $1.startsAt }
      },
      add: { schedule in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(150))
        added.withLock { $0.append(schedule) }
        return schedule
      }
    )
  }

  /// The test repository: the sample routine, every add succeeds, at once.
  public static var mock: ScheduleRepository {
    ScheduleRepository(fetchDay: { sampleDay($0) }, add: { $0 })
  }
}

enum ScheduleRepositoryKey: DependencyKey {
  static var liveValue: ScheduleRepository { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: ScheduleRepository { .live }
}

extension DependencyValues {
  /// The schedules. Live: `ScheduleRepository.live`. In tests: the
  /// same, on the test clock; `.mock` answers at once.
  public var scheduleRepository: ScheduleRepository {
    get { self[ScheduleRepositoryKey.self] }
    set { self[ScheduleRepositoryKey.self] = newValue }
  }
}

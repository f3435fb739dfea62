import ComposableCore
import Foundation

/// Writes the AI briefing of a child's day (seed 002's "AI 브리핑").
///
/// ```swift
/// @Dependency(\.briefingClient) var briefingClient
/// try await briefingClient.brief(child, schedules)
/// // "Jiwoo has 2 plans today: School at 08:40, then Piano at 15:30."
/// ```
public struct BriefingClient: Sendable {
  public var brief: @Sendable (_ child: Child, _ schedules: [Schedule]) async throws -> String

  public init(
    brief: @escaping @Sendable (_ child: Child, _ schedules: [Schedule]) async throws -> String
  ) {
    self.brief = brief
  }
}

extension BriefingClient {
  /// The live client: a written summary after a wait on the clock dependency that stands in for
  /// the model (no network is used).
  public static var live: BriefingClient {
    BriefingClient { child, schedules in
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(500))
      return summary(child, schedules)
    }
  }

  /// The test client: the same summary, at once.
  public static var immediate: BriefingClient {
    BriefingClient { child, schedules in summary(child, schedules) }
  }

  /// The briefing text for a child's schedules (the others' are ignored), times in UTC.
  public static func summary(_ child: Child, _ schedules: [Schedule]) -> String {
    let own = schedules.filter { $0.childID == child.id }.sorted { $0.startsAt < $1.startsAt }
    guard !own.isEmpty else { return "\(child.name) has a free day." }
    let items = own.map { "\($0.title) at \(clock($0.startsAt))" }
    let plans = own.count == 1 ? "1 plan" : "\(own.count) plans"
    return "\(child.name) has \(plans) today: \(items.joined(separator: ", then "))."
  }

  static func clock(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
    let hour = minutes / 60
    let minute = minutes % 60
    return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + (minute < 10 ? "0\(minute)" : "\(minute)")
  }
}

enum BriefingClientKey: DependencyKey {
  static var liveValue: BriefingClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: BriefingClient { .live }
}

extension DependencyValues {
  /// The AI briefing writer. Live: `BriefingClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var briefingClient: BriefingClient {
    get { self[BriefingClientKey.self] }
    set { self[BriefingClientKey.self] = newValue }
  }
}

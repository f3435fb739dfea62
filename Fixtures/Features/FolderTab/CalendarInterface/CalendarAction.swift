import FixtureSupport

/// The climbing calendar's actions, by intent (seed 000): `view` for what its view sends,
/// `inner` for what its effects feed back, `delegate` for what it tells its parent.
///
/// ```swift
/// store.send(.view(.dayTapped(12)))  // then .delegate(.daySelected(2026-05-12))
/// ```
public enum CalendarAction: Equatable, Sendable, Codable {
  case view(View)
  case inner(Inner)
  case delegate(Delegate)

  /// What the calendar's view sends.
  public enum View: Equatable, Sendable, Codable {
    case onAppear
    case previousMonthTapped
    case nextMonthTapped
    case dayTapped(Int)
  }

  /// What the calendar's effects send back.
  public enum Inner: Equatable, Sendable, Codable {
    case recordsLoaded(CalendarMonth, FetchResult<[Int]>)
  }

  /// What the calendar tells the feature that composes it.
  public enum Delegate: Equatable, Sendable, Codable {
    case daySelected(CalendarDay)
  }
}

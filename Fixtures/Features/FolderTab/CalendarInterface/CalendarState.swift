import FixtureSupport

/// The climbing calendar's state: a month, the days with records, the chosen day.
///
/// ```swift
/// var state = CalendarState(month: CalendarMonth(year: 2026, month: 5))
/// state.climbedDays = [3, 12]
/// state.hasRecords(on: 12)  // true
/// ```
public struct CalendarState: Equatable, Sendable, Codable {
  /// The month shown; `nil` until the calendar learns today's date.
  public var month: CalendarMonth?
  public var today: CalendarDay?
  public var selectedDay: CalendarDay?
  /// The days of `month` with climbing records, ascending.
  public var climbedDays: [Int]
  public var isLoading: Bool
  public var errorMessage: String?

  public init(
    month: CalendarMonth? = nil,
    today: CalendarDay? = nil,
    selectedDay: CalendarDay? = nil,
    climbedDays: [Int] = [],
    isLoading: Bool = false,
    errorMessage: String? = nil
  ) {
    self.month = month
    self.today = today
    self.selectedDay = selectedDay
    self.climbedDays = climbedDays
    self.isLoading = isLoading
    self.errorMessage = errorMessage
  }

  /// Whether the shown month has records on a day.
  public func hasRecords(on day: Int) -> Bool {
    climbedDays.contains(day)
  }
}

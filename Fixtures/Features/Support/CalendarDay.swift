import Foundation

/// A day of the Gregorian calendar in UTC: what the calendar and the folders key records by.
///
/// ```swift
/// CalendarDay(Date(timeIntervalSince1970: 0))  // 1970-01-01
/// CalendarDay(year: 2026, month: 5, day: 12).description  // "2026-05-12"
/// ```
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int

  /// A day by its numbers.
  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The UTC day a date falls on.
  public init(_ date: Date) {
    let parts = CalendarDay.utc.dateComponents([.year, .month, .day], from: date)
    self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
  }

  /// The month the day is in.
  public var calendarMonth: CalendarMonth { CalendarMonth(year: year, month: month) }

  /// Midnight UTC at the start of the day.
  public var startDate: Date {
    let parts = DateComponents(year: year, month: month, day: day)
    return CalendarDay.utc.date(from: parts) ?? Date(timeIntervalSince1970: 0)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  public var description: String {
    "\(year)-\(CalendarDay.pad(month))-\(CalendarDay.pad(day))"
  }

  static func pad(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }

  /// The Gregorian calendar in UTC: the days of a recording do not depend on where it is
  /// replayed.
  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    return calendar
  }()
}

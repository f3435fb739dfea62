/// A month of the Gregorian calendar: what the calendar shows and loads records for.
///
/// ```swift
/// CalendarMonth(year: 2026, month: 12).next  // 2027-01
/// CalendarMonth(year: 2026, month: 2).dayCount  // 28
/// ```
public struct CalendarMonth: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var year: Int
  public var month: Int

  /// A month by its numbers (month 1…12).
  public init(year: Int, month: Int) {
    self.year = year
    self.month = month
  }

  /// The month after this one.
  public var next: CalendarMonth {
    month == 12
      ? CalendarMonth(year: year + 1, month: 1) : CalendarMonth(year: year, month: month + 1)
  }

  /// The month before this one.
  public var previous: CalendarMonth {
    month == 1
      ? CalendarMonth(year: year - 1, month: 12) : CalendarMonth(year: year, month: month - 1)
  }

  /// How many days the month has.
  public var dayCount: Int {
    switch month {
    case 2:
      let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return isLeap ? 29 : 28
    case 4, 6, 9, 11:
      return 30
    default:
      return 31
    }
  }

  /// A day of this month.
  public func day(_ day: Int) -> CalendarDay {
    CalendarDay(year: year, month: month, day: day)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.year, lhs.month) < (rhs.year, rhs.month)
  }

  public var description: String {
    "\(year)-\(CalendarDay.pad(month))"
  }
}

/// Days since 1970-01-01 to and from year, month and day in the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil` and `civil_from_days`), exact for every date an
/// `Int64` of days can hold: what a trace's dates and the inspector's times are printed with.
///
/// ```swift
/// CivilDate.date(daysSince1970: 20_585)                 // (2026, 5, 12)
/// CivilDate.daysSince1970(year: 2026, month: 5, day: 12) // 20_585
/// ```
package enum CivilDate {
  package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  package static func date(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64)
  {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

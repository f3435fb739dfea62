import TraceValues

/// Numbers as the inspector prints them: grouped thousands, short durations, byte sizes.
///
/// ```swift
/// NumberText.grouped(9990)             // "9,990"
/// NumberText.duration(nanos: 1_500_000) // "1.5ms"
/// NumberText.bytes(2_411_724)           // "2.3 MiB"
/// NumberText.duration(nanos: 125_000 * 1_000_000_000)  // "1d 10h"
/// ```
enum NumberText {
  static func grouped(_ value: Int) -> String { DigitGrouping.grouped(value) }

  /// `1 state`, `1,001 states`.
  static func counted(_ count: Int, _ noun: String) -> String {
    grouped(count) + " " + noun + (count == 1 ? "" : "s")
  }

  static func duration(nanos: UInt64) -> String {
    switch nanos {
    case ..<1_000: "\(nanos)ns"
    case ..<1_000_000: fixed(Double(nanos) / 1e3) + "µs"
    case ..<1_000_000_000: fixed(Double(nanos) / 1e6) + "ms"
    case ..<60_000_000_000: fixed(Double(nanos) / 1e9) + "s"
    default:
      // Past a minute, seconds with decimals stop being readable: "2m 5s", "34h 43m".
      minutesAndMore(Int(nanos / 1_000_000_000))
    }
  }

  static func minutesAndMore(_ seconds: Int) -> String {
    let days = seconds / 86_400
    let hours = seconds / 3600 % 24
    let minutes = seconds / 60 % 60
    if days > 0 { return "\(days)d \(hours)h" }
    if hours > 0 { return "\(hours)h \(minutes)m" }
    return "\(minutes)m \(seconds % 60)s"
  }

  static func bytes(_ count: Int) -> String {
    switch count {
    case ..<1024: "\(count) B"
    case ..<(1024 * 1024): fixed(Double(count) / 1024) + " KiB"
    case ..<(1024 * 1024 * 1024): fixed(Double(count) / 1_048_576) + " MiB"
    default: fixed(Double(count) / 1_073_741_824) + " GiB"
    }
  }

  /// One decimal below 100, none above; no trailing `.0`.
  static func fixed(_ value: Double) -> String {
    // A trace is untrusted: a damaged number must print as such, not trap in a conversion.
    guard value.isFinite, value.magnitude < 1e15 else { return "?" }
    if value >= 100 { return String(Int(value.rounded())) }
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
  }

  /// A time of day in UTC with milliseconds, from seconds since 1970: `14:03:07.125`.
  static func clock(_ seconds: Double) -> String {
    guard isPlausibleTime(seconds) else { return "?" }
    let millis = Int64((seconds * 1000).rounded(.down))
    let dayMillis = ((millis % 86_400_000) + 86_400_000) % 86_400_000
    let h = dayMillis / 3_600_000
    let m = dayMillis / 60_000 % 60
    let s = dayMillis / 1000 % 60
    let ms = dayMillis % 1000
    return pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(ms, 3)
  }

  /// A UTC date and time, from seconds since 1970: `2026-12-01 14:03:07Z`.
  static func dateTime(_ seconds: Double) -> String {
    guard isPlausibleTime(seconds) else { return "?" }
    let total = Int64(seconds.rounded(.down))
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secs = total - days * 86_400
    let (year, month, day) = CivilDate.date(daysSince1970: days)
    return "\(year)-" + pad(month, 2) + "-" + pad(day, 2) + " "
      + pad(secs / 3600, 2) + ":" + pad(secs / 60 % 60, 2) + ":" + pad(secs % 60, 2) + "Z"
  }

  /// Seconds since 1970 that convert to integers without trapping (±3 million years).
  static func isPlausibleTime(_ seconds: Double) -> Bool {
    seconds.isFinite && seconds.magnitude < 1e14
  }

  static func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

import Foundation

/// Number text for the report: readable magnitudes, never scientific notation.
///
/// ```swift
/// NumberFormat.compact(250_000)  // "250,000"
/// NumberFormat.compact(3.14159)  // "3.14"
/// NumberFormat.compact(0.0123)   // "0.0123"
/// ```
enum NumberFormat {
  static func compact(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "n/a" : (value > 0 ? "inf" : "-inf") }
    let magnitude = abs(value)
    if magnitude >= 1_000 { return grouped(Int64(value.rounded())) }
    if magnitude >= 100 { return String(format: "%.0f", value) }
    if magnitude >= 10 { return String(format: "%.1f", value) }
    if magnitude >= 1 || magnitude == 0 { return String(format: "%.2f", value) }
    return String(format: "%.3g", value)
  }

  static func grouped(_ value: Int64) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return value < 0 ? "-" + out : out
  }
}

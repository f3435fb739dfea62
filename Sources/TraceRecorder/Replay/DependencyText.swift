import Foundation
import TraceKit

/// A recorded dependency value as a person reads it: a date as a date, a UUID as its text, a
/// clock reading in seconds.
///
/// ```swift
/// DependencyText.value(.double(800_000_000), key: "date")  // 2026-05-09T22:13:20Z
/// DependencyText.value(.int(7), key: "random")             // 7
/// ```
enum DependencyText {
  static func value(_ value: TraceValue, key: String) -> String {
    switch (key, value) {
    case ("date", _):
      guard let date = ServedDependencies.date(value) else { return "\(value)" }
      return date.formatted(.iso8601)
    case ("clock", .double(let seconds)):
      return "\(seconds)s"
    case (_, .string(let text)):
      return text
    default:
      return "\(value)"
    }
  }
}

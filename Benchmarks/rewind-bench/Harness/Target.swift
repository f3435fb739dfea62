/// The promise a case is measured against: a bound the value must stay at or under, or reach.
///
/// ```swift
/// Target.atMost(200).text(unit: "ns")   // "≤ 200 ns"
/// Target.atLeast(250_000).isMet(by: 300_000)  // true
/// ```
struct Target: Codable, Sendable {
  enum Direction: String, Codable, Sendable {
    case atMost = "at-most"
    case atLeast = "at-least"
  }

  var direction: Direction
  var bound: Double

  static func atMost(_ bound: Double) -> Target { Target(direction: .atMost, bound: bound) }
  static func atLeast(_ bound: Double) -> Target { Target(direction: .atLeast, bound: bound) }

  func isMet(by value: Double) -> Bool {
    switch direction {
    case .atMost: value <= bound
    case .atLeast: value >= bound
    }
  }

  func text(unit: String) -> String {
    let sign = direction == .atMost ? "≤" : "≥"
    return "\(sign) \(NumberFormat.compact(bound)) \(unit)"
  }
}

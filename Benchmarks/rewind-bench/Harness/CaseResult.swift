/// What one benchmark case measured, ready to print and to write as JSON.
///
/// ```swift
/// let result = CaseResult(
///   name: "trace.bytes-per-step.counter", value: 21.3, unit: "B/step",
///   spread: Spread(kind: .minMax, low: 21.3, high: 21.3, count: 1), target: .atMost(48))
/// result.isMet  // true
/// ```
struct CaseResult: Codable, Sendable {
  var name: String
  /// The median (or the single measurement, for sizes that do not vary).
  var value: Double
  var unit: String
  var spread: Spread
  /// The reference measured in the same run, when the case has one.
  var baseline: Baseline?
  /// Value over baseline or baseline over value, as the case defines it; computed pair by pair.
  var ratio: Double?
  var target: Target
  /// What was measured exactly (sizes, sample counts), in a few words.
  var note: String?

  var isMet: Bool { target.isMet(by: value) }
}

/// How far the repeated measurements of a case spread.
struct Spread: Codable, Sendable {
  enum Kind: String, Codable, Sendable {
    /// The middle half of the samples (first to third quartile).
    case interquartile = "IQR"
    /// The lowest and the highest sample.
    case minMax = "min-max"
  }

  var kind: Kind
  var low: Double
  var high: Double
  var count: Int

  /// The interquartile range for five samples or more, otherwise min–max.
  init(_ samples: Samples) {
    kind = samples.count >= 5 ? .interquartile : .minMax
    low = kind == .interquartile ? samples.lowerQuartile : samples.minimum
    high = kind == .interquartile ? samples.upperQuartile : samples.maximum
    count = samples.count
  }

  init(kind: Kind, low: Double, high: Double, count: Int) {
    self.kind = kind
    self.low = low
    self.high = high
    self.count = count
  }

  /// A value computed once (a size): no spread.
  static func exact(_ value: Double) -> Spread {
    Spread(kind: .minMax, low: value, high: value, count: 1)
  }
}

/// The reference a case is compared with.
struct Baseline: Codable, Sendable {
  /// What the baseline is: "bare send", "reflection _printChanges", "/bin/true".
  var label: String
  var value: Double
  var unit: String
}

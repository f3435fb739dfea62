/// Repeated measurements of one quantity and their order statistics.
///
/// ```swift
/// let samples = Samples([5, 1, 3, 2, 4])
/// samples.median  // 3
/// samples.lowerQuartile  // 2
/// ```
struct Samples: Sendable {
  /// The measurements, sorted ascending.
  let sorted: [Double]

  init(_ values: [Double]) {
    sorted = values.sorted()
  }

  var count: Int { sorted.count }
  var minimum: Double { sorted.first ?? .nan }
  var maximum: Double { sorted.last ?? .nan }
  var median: Double { quantile(0.5) }
  var lowerQuartile: Double { quantile(0.25) }
  var upperQuartile: Double { quantile(0.75) }

  /// Linear interpolation between the closest ranks, so small sample counts stay meaningful.
  func quantile(_ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    let fraction = position - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
  }
}

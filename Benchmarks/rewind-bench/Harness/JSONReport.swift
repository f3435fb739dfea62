import Foundation

/// The `--json FILE` output: an array with one object per case.
///
/// ```json
/// [{"name":"trace.seek.1m","value":1.21,"unit":"ms","target":5,"targetDirection":"at-most",
///   "met":true,"spread":{"kind":"IQR","low":0.98,"high":1.4,"samples":200}}]
/// ```
enum JSONReport {
  struct Entry: Encodable {
    struct SpreadEntry: Encodable {
      var kind: String
      var low: Double
      var high: Double
      var samples: Int
    }

    var name: String
    var value: Double?
    var unit: String?
    var baseline: Double?
    var baselineLabel: String?
    var baselineUnit: String?
    var ratio: Double?
    var target: Double
    var targetDirection: String
    var met: Bool?
    var spread: SpreadEntry?
    var note: String?
    /// Set when the case could not run.
    var error: String?
  }

  static func entry(_ result: CaseResult) -> Entry {
    Entry(
      name: result.name, value: finite(result.value), unit: result.unit,
      baseline: result.baseline.flatMap { finite($0.value) },
      baselineLabel: result.baseline?.label, baselineUnit: result.baseline?.unit,
      ratio: result.ratio.flatMap(finite),
      target: result.target.bound, targetDirection: result.target.direction.rawValue,
      met: result.isMet,
      spread: Entry.SpreadEntry(
        kind: result.spread.kind.rawValue, low: finite(result.spread.low) ?? 0,
        high: finite(result.spread.high) ?? 0, samples: result.spread.count),
      note: result.note, error: nil)
  }

  static func failure(name: String, target: Target, error: any Error) -> Entry {
    Entry(
      name: name, target: target.bound, targetDirection: target.direction.rawValue,
      error: "\(error)")
  }

  static func write(_ entries: [Entry], to path: String) throws(BenchError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      let data = try encoder.encode(entries)
      try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    } catch {
      throw BenchError("cannot write the JSON report to \(path): \(error)")
    }
  }

  /// JSON has no NaN or infinity.
  private static func finite(_ value: Double) -> Double? {
    value.isFinite ? value : nil
  }
}

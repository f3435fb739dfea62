/// The one line a case prints: name, value and unit, spread, baseline, ratio, target, verdict.
///
/// ```text
/// trace.seek.1m  1.21 ms  IQR 0.98–1.40 n=200  baseline —  ratio —  target ≤ 5.00 ms  met
/// ```
/// (columns padded to fixed widths in the real output).
enum ReportLine {
  static func text(_ result: CaseResult) -> String {
    let value = NumberFormat.compact(result.value) + " " + result.unit
    let spread = "\(result.spread.kind.rawValue) \(NumberFormat.compact(result.spread.low))–"
      + "\(NumberFormat.compact(result.spread.high)) n=\(result.spread.count)"
    let baseline = result.baseline.map {
      "baseline \(NumberFormat.compact($0.value)) \($0.unit) (\($0.label))"
    } ?? "baseline —"
    let ratio = result.ratio.map { "ratio \(NumberFormat.compact($0))x" } ?? "ratio —"
    var line = pad(result.name, 34) + " " + pad(value, 16) + " " + pad(spread, 30) + " "
      + pad(baseline, 40) + " " + pad(ratio, 14) + " "
      + pad("target " + result.target.text(unit: result.unit), 26) + " "
      + (result.isMet ? "met" : "MISSED")
    if let note = result.note { line += "  (\(note))" }
    return line
  }

  static func failure(name: String, error: any Error) -> String {
    pad(name, 34) + " could not run: \(error)"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}

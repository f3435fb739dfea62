/// Effects as a table: id, the step that started it, cancellation id, outcome, duration, the
/// steps it sent and where it was created; the widest columns shrink to fit the width.
///
/// ```text
/// EFFECT    STEP  CANCEL ID  OUTCOME               DURATION  SENT       SOURCE
/// 5a1c0e42     3  -          finished              250ms     1: 4       Counter.swift:41
/// 9b07d1aa     6  timer      cancelled by step 9   1.2s      3: 7, 8, …  Timer.swift:12
/// ```
struct EffectTable {
  var width: Int
  var style = Style(colour: false)

  func render(_ effects: [EffectEntry], into out: inout some TextOutputStream) {
    let header = ["EFFECT", "STEP", "CANCEL ID", "OUTCOME", "DURATION", "SENT", "SOURCE"]
    var rows: [[String]] = []
    for effect in effects {
      rows.append([
        effect.id.uuidString.prefix(8).lowercased(),
        String(effect.startedByStep),
        effect.cancelID.map(EscapedText.plain) ?? "-",
        Self.outcome(effect.outcome),
        effect.durationNanos.map { NumberText.duration(nanos: $0) } ?? "-",
        Self.sent(effect.sentSteps),
        effect.file.map { EscapedText.plain(Self.basename($0)) + (effect.line.map { ":\($0)" } ?? "") }
          ?? "-",
      ])
    }
    var widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    // Shrink the free-text columns (source, cancel id, sent) until the row fits.
    let total = { widths.reduce(0, +) + 2 * (widths.count - 1) }
    for column in [6, 2, 5] where total() > width {
      widths[column] = max(header[column].count, widths[column] - (total() - width))
    }
    let numeric: Set<Int> = [1]
    out.write(style.bold(line(header, widths, numeric)) + "\n")
    for row in rows {
      out.write(line(row, widths, numeric) + "\n")
    }
  }

  private func line(_ cells: [String], _ widths: [Int], _ numeric: Set<Int>) -> String {
    var parts: [String] = []
    for (column, cell) in cells.enumerated() {
      var text = cell
      if text.count > widths[column] { text = String(text.prefix(widths[column] - 1)) + "…" }
      let pad = String(repeating: " ", count: widths[column] - text.count)
      parts.append(numeric.contains(column) ? pad + text : text + pad)
    }
    var joined = parts.joined(separator: "  ")
    while joined.last == " " { joined.removeLast() }
    return joined
  }

  static func outcome(_ outcome: EffectEntry.Outcome) -> String {
    switch outcome {
    case .running: "running"
    case .finished: "finished"
    case .unfinished: "unfinished"
    case .cancelled(let reason, let step):
      // "cancel" is the plain `.cancel(id:)`; other reasons (ifLet, forEach, …) say more.
      "cancelled ("
        + [reason == "cancel" ? nil : EscapedText.plain(reason), step.map { "step \($0)" }]
        .compactMap { $0 }.joined(separator: ", ") + ")"
    }
  }

  static func sent(_ steps: [Int]) -> String {
    guard !steps.isEmpty else { return "0" }
    let shown = steps.prefix(3).map(String.init).joined(separator: ", ")
    return "\(steps.count): " + shown + (steps.count > 3 ? ", …" : "")
  }

  static func basename(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}

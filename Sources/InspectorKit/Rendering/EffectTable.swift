import TraceKit

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

  func render(_ effects: [EffectRecord], into out: inout some TextOutputStream) {
    let header = ["EFFECT", "STEP", "CANCEL ID", "OUTCOME", "DURATION", "SENT", "SOURCE"]
    var rows: [[String]] = []
    for effect in effects {
      rows.append([
        UUIDText.short(effect.id).lowercased(),
        String(effect.startedByStep),
        effect.cancelID.map(EscapedText.plain) ?? "-",
        Self.outcome(effect.outcome),
        effect.durationNanos.map { NumberText.duration(nanos: $0) } ?? "-",
        Self.sent(effect.sentSteps),
        effect.file.map {
          EscapedText.plain(Self.basename($0)) + (effect.line.map { ":\($0)" } ?? "")
        }
          ?? "-",
      ])
    }
    let natural = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    // Shrink the free-text columns (source, cancel id, sent) until a row fits; when even their
    // headers do not fit, leave out source, then sent, then cancel id, and try again.
    var columns = Array(header.indices)
    var widths = natural
    for dropped in [[], [6], [6, 5], [6, 5, 2]] {
      columns = header.indices.filter { !dropped.contains($0) }
      widths = natural
      let total = { columns.reduce(0) { $0 + widths[$1] } + 2 * (columns.count - 1) }
      for column in [6, 2, 5] where columns.contains(column) && total() > width {
        widths[column] = max(header[column].count, widths[column] - (total() - width))
      }
      if total() <= width { break }
    }
    let pick = { (row: [String]) in columns.map { row[$0] } }
    let shown = columns.map { widths[$0] }
    let numeric: Set<Int> = [columns.firstIndex(of: 1) ?? -1]
    out.write(style.bold(line(pick(header), shown, numeric)) + "\n")
    for row in rows {
      out.write(line(pick(row), shown, numeric) + "\n")
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
    // Columns shrink only to their header's width; past that the line itself is cut.
    if joined.count > width { joined = String(joined.prefix(width - 1)) + "…" }
    return joined
  }

  static func outcome(_ outcome: EffectOutcome) -> String {
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

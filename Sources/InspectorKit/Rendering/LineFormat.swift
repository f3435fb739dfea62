import TraceKit

/// One step as one line for `log` and `follow`: number, elapsed time, origin, action path with a
/// short payload, and the changed state paths (positions of one array folded into ranges, see
/// `ChangedPathsText`); cut to the terminal width.
///
/// ```swift
/// LineFormat(width: 80, style: Style(colour: false)).render(entry, action: action)
/// // "     1  00:00.012  user             counter.incrementTapped  → counter.count"
/// ```
struct LineFormat {
  var width: Int
  var style: Style
  /// Columns of the step number: enough for the trace's last step.
  var numberWidth = 6

  init(width: Int, style: Style, lastStep: Int = 0) {
    self.width = width
    self.style = style
    numberWidth = max(6, String(lastStep).count)
  }

  func render(_ entry: StepRow, action: TraceValue) -> String {
    let number =
      String(repeating: " ", count: max(0, numberWidth - String(entry.step).count))
      + String(entry.step)
    let origin: String
    switch entry.origin {
    case .initial: origin = "initial"
    case .user: origin = "user"
    case .effect(let id): origin = "effect " + UUIDText.short(id).lowercased()
    case .send(let step): origin = "send of \(step)"
    case .observer: origin = "observer"
    case .inspector, .jump, .continued: origin = "inspector"
    }
    // The line after the number; the number is added last, dimmed.
    // All ASCII, so its UTF-8 count is its width.
    let head =
      "  " + Self.elapsed(entry.monotonicNanos) + "  " + HelpText.padded(origin, 15) + "  "
    let path = entry.origin.inspectorStepText ?? EscapedText.plain(entry.actionPath)
    var payload = payload(action)
    let changed =
      entry.changedPaths.isEmpty
      ? "" : "  → " + ChangedPathsText.text(entry.changedPaths)
    var rest: String
    if width == .max {
      // Piped without COLUMNS: nothing is cut, so no character counting (it was half the
      // time of a whole `log`).
      rest = path + payload + changed
    } else {
      let room = max(10, width - number.utf8.count - head.utf8.count)
      // The changed paths matter more than the payload: shorten the payload first.
      let spare = room - path.count - changed.count
      if !payload.isEmpty, payload.count > spare {
        payload = spare >= 4 ? String(payload.prefix(spare - 2)) + "…)" : "(…)"
      }
      rest = path + payload + changed
      if rest.count > room { rest = String(rest.prefix(room - 1)) + "…" }
    }
    var line = head + rest
    while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
    return style.dim(number) + line
  }

  /// The associated values of the innermost case of the action, on one line: the action path
  /// already names the cases around it.
  func payload(_ action: TraceValue) -> String {
    var value = action
    while case .enumCase(_, let fields) = value, fields.count == 1,
      fields[0].value.isEnumCase || fields[0].value.isReflectedCase
    {
      value = fields[0].value
      if case .reflected(_, let inner) = value { value = inner }
    }
    guard case .enumCase(_, let fields) = value, !fields.isEmpty else { return "" }
    let dumper = ValueDumper(width: .max, maxItems: 3)
    let parts = fields.map { field in
      ValueDumper.label(field.key) + dumper.inlineText(field.value)
    }
    return "(" + parts.joined(separator: ", ") + ")"
  }

  /// `mm:ss.mmm` since the trace started (`h:mm:ss.mmm` past an hour).
  static func elapsed(_ nanos: UInt64) -> String {
    let millis = nanos / 1_000_000
    let hours = Int64(millis / 3_600_000)
    let minutes = Int64(millis / 60_000 % 60)
    let seconds = Int64(millis / 1000 % 60)
    let clock =
      NumberText.pad(minutes, 2) + ":" + NumberText.pad(seconds, 2) + "."
      + NumberText.pad(Int64(millis % 1000), 3)
    return hours > 0 ? "\(hours):" + clock : clock
  }
}

extension TraceValue {
  var isEnumCase: Bool {
    if case .enumCase = self { return true }
    return false
  }

  var isReflectedCase: Bool {
    if case .reflected(_, let inner) = self { return inner.isEnumCase }
    return false
  }
}

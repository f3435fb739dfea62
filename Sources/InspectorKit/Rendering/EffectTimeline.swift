import TraceKit

/// A text timeline of effects: one row per effect, its start and end placed on a shared time
/// axis that fills the width; an effect without an end runs to the right edge with `▶`.
///
/// ```text
/// EFFECT    STEP  0ms                                        1.2s
/// 5a1c0e42     3  ├──────────┤                               finished
/// 9b07d1aa     6       ├──────────────────────────────────▶  running
/// ```
struct EffectTimeline {
  var width: Int
  var style = Style(colour: false)

  func render(
    _ effects: [EffectRecord], end traceEnd: UInt64, into out: inout some TextOutputStream
  ) {
    let starts = effects.compactMap(\.startNanos)
    let origin = starts.min() ?? 0
    let last = max(traceEnd, effects.compactMap(\.endNanos).max() ?? 0, starts.max() ?? 0)
    let span = max(1, last - min(origin, last))
    let outcomes = effects.map { EffectTable.outcome($0.outcome) }
    let outcomeWidth = outcomes.map(\.count).max() ?? 0
    let lead = 8 + 2 + 5 + 2
    let axis = max(10, width - lead - 2 - outcomeWidth)
    let startLabel = "0"
    let endLabel = NumberText.duration(nanos: span)
    let fill = max(1, axis - startLabel.count - endLabel.count)
    out.write(
      style.bold(
        "EFFECT    " + " STEP  " + startLabel + String(repeating: " ", count: fill) + endLabel)
        + "\n")
    func column(_ nanos: UInt64) -> Int {
      let offset = nanos >= origin ? nanos - origin : 0
      return min(axis - 1, Int(Double(offset) / Double(span) * Double(axis - 1)))
    }
    for (effect, outcome) in zip(effects, outcomes) {
      var bar = [Character](repeating: " ", count: axis)
      if let start = effect.startNanos {
        let from = column(start)
        if let end = effect.endNanos {
          let to = max(from, column(end))
          for index in from...to { bar[index] = "─" }
          bar[from] = "├"
          bar[to] = from == to ? "┼" : "┤"
        } else {
          for index in from..<axis { bar[index] = "─" }
          bar[from] = "├"
          bar[axis - 1] = "▶"
        }
      } else {
        bar = Array("(no start time)".padding(axis))
      }
      let id = UUIDText.short(effect.id).lowercased()
      let step = String(effect.startedByStep)
      let stepText = String(repeating: " ", count: max(0, 5 - step.count)) + step
      out.write(id + "  " + stepText + "  " + String(bar) + "  " + outcome + "\n")
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
  }
}

import TraceKit

/// The timeline row of `inspector open`: the whole trace across the screen's width, with the
/// cursor's place, marks, search hits (or the filter's matches), gaps and keyframes.
///
/// ```text
/// ──┼───•──┼─────┼──✕──┼─█───┼─────┼────a┼─────┼────
/// ```
///
/// Each column stands for a run of steps (`steps(ofColumn:)`); what a column shows, first
/// match wins: `█` the cursor, a mark's letter, `•` a hit, `✕` dropped steps, `┼` a keyframe
/// (only when keyframes are sparser than every other column, else they would fill the row),
/// `─` the rest.
struct Timeline {
  var width: Int
  var lastStep: Int

  /// The steps a column stands for (never empty: on a trace shorter than the row, several
  /// columns stand for one step).
  static func steps(ofColumn column: Int, width: Int, lastStep: Int) -> ClosedRange<Int> {
    let count = lastStep + 1
    let from = column * count / max(1, width)
    let to = max(from, (column + 1) * count / max(1, width) - 1)
    return from...min(to, lastStep)
  }

  static func step(atColumn column: Int, width: Int, lastStep: Int) -> Int {
    steps(ofColumn: max(0, min(width - 1, column)), width: width, lastStep: lastStep).lowerBound
  }

  static func column(ofStep step: Int, width: Int, lastStep: Int) -> Int {
    min(width - 1, max(0, step * width / (lastStep + 1)))
  }

  func draw(
    into grid: inout ScreenGrid, row: Int, cursor: Int, marks: [Character: Int],
    hits: StepHistogram?, gaps: [TraceGap], keyframeInterval: Int
  ) {
    let showsKeyframes = keyframeInterval > 0 && keyframeInterval >= (lastStep / width + 1) * 2
    let cursorColumn = Self.column(ofStep: cursor, width: width, lastStep: lastStep)
    var markColumns: [Int: Character] = [:]
    for (letter, step) in marks.sorted(by: { $0.key < $1.key }) where step <= lastStep {
      markColumns[Self.column(ofStep: step, width: width, lastStep: lastStep)] = letter
    }
    for column in 0..<width {
      let steps = Self.steps(ofColumn: column, width: width, lastStep: lastStep)
      let (text, style): (String, CellStyle)
      if column == cursorColumn {
        (text, style) = ("█", .cursor)
      } else if let letter = markColumns[column] {
        (text, style) = (String(letter), .bold)
      } else if hits?.hasHit(in: steps) == true {
        (text, style) = ("•", .hit)
      } else if gaps.contains(where: { Self.dropped($0)?.overlaps(steps) == true }) {
        (text, style) = ("✕", .warning)
      } else if showsKeyframes, Self.holdsKeyframe(steps, interval: keyframeInterval) {
        (text, style) = ("┼", .dim)
      } else {
        (text, style) = ("─", .border)
      }
      grid.write(text, row: row, column: column, limit: 1, style: style)
    }
  }

  /// The steps a gap left out; nil for a gap that holds none (the numbers come from the
  /// trace: they are not trusted to add up without overflowing).
  static func dropped(_ gap: TraceGap) -> ClosedRange<Int>? {
    guard gap.dropped > 0, gap.afterStep >= -1, gap.afterStep < Int.max else { return nil }
    let (end, overflow) = gap.afterStep.addingReportingOverflow(gap.dropped)
    return (gap.afterStep + 1)...(overflow ? Int.max : end)
  }

  private static func holdsKeyframe(_ steps: ClosedRange<Int>, interval: Int) -> Bool {
    let rest = steps.lowerBound % interval
    return rest == 0 || interval - rest <= steps.upperBound - steps.lowerBound
  }
}

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

  init(width: Int, lastStep: Int) {
    self.width = max(1, width)
    // A step number this large can only come from a damaged trace; it must not overflow.
    self.lastStep = max(0, min(lastStep, Int.max - 1))
  }

  /// The steps a column stands for (never empty: on a trace shorter than the row, several
  /// columns stand for one step). Step numbers come from the trace, so the arithmetic is
  /// done at full width: no product can overflow.
  static func steps(ofColumn column: Int, width: Int, lastStep: Int) -> ClosedRange<Int> {
    let count = lastStep + 1
    let from = scaled(column, count, width)
    let to = max(from, scaled(column + 1, count, width) - 1)
    return from...min(to, lastStep)
  }

  static func step(atColumn column: Int, width: Int, lastStep: Int) -> Int {
    steps(ofColumn: max(0, min(width - 1, column)), width: width, lastStep: lastStep).lowerBound
  }

  /// The column whose steps hold `step` (the first of them when a step spans several).
  static func column(ofStep step: Int, width: Int, lastStep: Int) -> Int {
    let step = max(0, min(step, lastStep))
    if lastStep + 1 < width {
      // Each step spans columns: the first c with c * count / width == step.
      return min(width - 1, (step * width + lastStep) / (lastStep + 1))
    }
    // One column per run of steps: the largest c with c * count / width <= step, that is
    // ((step + 1) * width - 1) / count.
    let product = (step + 1).multipliedFullWidth(by: width)
    let less = product.low == 0 ? (product.high - 1, UInt.max) : (product.high, product.low - 1)
    let column = (lastStep + 1).dividingFullWidth(less).quotient
    return min(width - 1, max(0, column))
  }

  /// `a * b / c` for `0 <= a <= c`, without overflow.
  static func scaled(_ a: Int, _ b: Int, _ c: Int) -> Int {
    guard c > 0 else { return 0 }
    return c.dividingFullWidth(a.multipliedFullWidth(by: b)).quotient
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
      // On a trace shorter than the row a step spans several columns: only its first one
      // shows what the step holds.
      let shows = Self.column(ofStep: steps.lowerBound, width: width, lastStep: lastStep) == column
      let (text, style): (String, CellStyle)
      if !shows {
        (text, style) = ("─", .border)
      } else if column == cursorColumn {
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

import TraceKit

/// Draws one frame of `inspector open` from its session: a pure function of the model and
/// what the source answers, into a `ScreenGrid`.
///
/// ```text
///  Steps                                     │  1 Diff  2 State  3 Action  4 Effects  5 Tree
///   0 00:00.000 init     (initial state)   · │ diff 3 → 4: todos.todo.toggled
///   …                                        │ …
/// ───┼───────┼─────────█───┼───────┼───────────────────────────────────────────────────────
///  step 4 of 12 · 00:00.500 · user · complete                              ? help  q quit
/// ```
struct OpenScreen {
  let session: OpenSession

  func draw() throws(InspectorError) -> ScreenGrid {
    let layout = session.layout
    var grid = ScreenGrid(width: layout.width, height: layout.height)
    guard !layout.isTooSmall else {
      grid.write(
        "terminal too small: \(layout.width)×\(layout.height)", row: 0, column: 0,
        style: .warning)
      grid.write(
        "inspector open needs \(OpenLayout.minimumWidth)×\(OpenLayout.minimumHeight)", row: 1,
        column: 0, style: .warning)
      return grid
    }
    try drawSteps(&grid, layout)
    try drawDetail(&grid, layout)
    drawTimeline(&grid, layout)
    drawStatus(&grid, layout)
    if session.model.showsHelp { drawHelp(&grid, layout) }
    return grid
  }

  // MARK: Steps

  private func drawSteps(_ grid: inout ScreenGrid, _ layout: OpenLayout) throws(InspectorError) {
    let model = session.model
    var header = " Steps"
    if let path = model.pathFilter {
      header += "  changed " + (path.isEmpty ? "anything" : path)
    }
    switch model.originFilter {
    case .all: break
    case .user: header += "  from user"
    case .effect: header += "  from effects"
    }
    if model.isFiltered {
      header += session.filterHits?.total.map { "  (" + NumberText.grouped($0) + ")" } ?? "  (…)"
    }
    grid.write(header, row: 0, column: 0, limit: layout.stepsWidth, style: .bold)
    let rows = try session.listRows(from: model.top, count: layout.bodyHeight)
    let numberWidth = max(1, String(session.lastStep).count)
    let showsTime = layout.stepsWidth >= 44
    let gapEnds = Set(session.summary.gaps.compactMap { Timeline.dropped($0)?.upperBound })
    let markByStep = Dictionary(
      model.marks.map { ($0.value, $0.key) }, uniquingKeysWith: { min($0, $1) })
    for (index, row) in rows.enumerated() {
      let y = 1 + index
      var x = 0
      if let mark = markByStep[row.step] {
        grid.write(String(mark), row: y, column: 0, limit: 1, style: .bold)
      } else if gapEnds.contains(row.step - 1) {
        grid.write("!", row: y, column: 0, limit: 1, style: .warning)
      }
      x = 1
      let number = String(row.step)
      x += grid.write(
        String(repeating: " ", count: max(0, numberWidth - number.count)) + number,
        row: y, column: x, style: .plain)
      if showsTime {
        x += grid.write(
          " " + LineFormat.elapsed(row.monotonicNanos), row: y, column: x, style: .dim)
      }
      let origin = Self.origin(row.origin)
      grid.write(" " + origin, row: y, column: x, limit: 9, style: .dim)
      x += 10
      let count = row.changedPaths.isEmpty ? "·" : NumberText.grouped(row.changedPaths.count)
      let countWidth = max(2, count.count)
      let pathRoom = layout.stepsWidth - x - countWidth - 2
      let path =
        row.step == 0 ? "(initial state)" : row.origin.inspectorStepText ?? row.actionPath
      let isHit = model.search?.actionPaths.contains(row.actionPath) == true
      grid.write(path, row: y, column: x, limit: pathRoom, style: isHit ? .hit : .plain)
      grid.write(
        String(repeating: " ", count: countWidth - count.count) + count, row: y,
        column: layout.stepsWidth - countWidth - 1, style: .dim)
      if row.step == model.cursor {
        grid.paint(
          row: y, from: 0, to: layout.stepsWidth,
          style: model.focus == .steps ? .cursor : .cursorInactive)
      }
    }
    for y in 0...layout.bodyHeight {
      grid.write("│", row: y, column: layout.stepsWidth, limit: 1, style: .border)
    }
  }

  /// `init`, `user`, the first 8 hex digits of the effect that sent the action, `send:N` for
  /// a `.send` step N's reducer returned, `observer` or `inspectr` (an attached inspector sent
  /// the action, or made the step: a jump, a continue).
  static func origin(_ origin: StepOrigin) -> String {
    switch origin {
    case .initial: "init"
    case .user: "user"
    case .effect(let id): DetailContent.short(id)
    case .send(let step): "send:\(step)"
    case .observer: "observer"
    // Eight columns, as wide as the column is.
    case .inspector, .jump, .continued: "inspectr"
    }
  }

  /// The origin in the status line, in words.
  static func statusOrigin(_ origin: StepOrigin) -> String {
    switch origin {
    case .initial: "initial"
    case .effect: "effect " + Self.origin(origin)
    case .send(let step): "sent by step \(step)"
    case .inspector: "sent by the inspector"
    case .jump, .continued: "the inspector's " + (origin.inspectorStepText ?? "")
    default: Self.origin(origin)
    }
  }

  // MARK: Detail

  private func drawDetail(_ grid: inout ScreenGrid, _ layout: OpenLayout) throws(InspectorError) {
    let model = session.model
    for entry in layout.tabs {
      let active = entry.tab == model.tab
      grid.write(
        entry.label, row: 0, column: entry.columns.lowerBound,
        style: active ? (model.focus == .detail ? .cursor : .bold) : .dim)
    }
    let lines = try session.detailLines()
    session.clampDetail(lineCount: lines.count)
    let position = session.model[position: model.tab]
    let x = layout.detailColumn + 1
    let room = layout.detailWidth - 1
    for row in 0..<layout.bodyHeight {
      let index = position.top + row
      guard index < lines.count else { break }
      grid.write(
        lines[index].text, row: 1 + row, column: x, limit: room, style: lines[index].style)
      if index == position.cursor {
        if model.focus == .detail {
          grid.paint(row: 1 + row, from: layout.detailColumn, to: layout.width, style: .cursor)
        } else if model.tab == .state || model.tab == .effects {
          grid.paint(
            row: 1 + row, from: layout.detailColumn, to: layout.width, style: .cursorInactive)
        }
      }
    }
  }

  // MARK: Timeline and status

  private func drawTimeline(_ grid: inout ScreenGrid, _ layout: OpenLayout) {
    let model = session.model
    Timeline(width: layout.width, lastStep: max(0, session.lastStep)).draw(
      into: &grid, row: layout.timelineRow, cursor: model.cursor, marks: model.marks,
      hits: session.searchHits ?? session.filterHits, gaps: session.summary.gaps,
      keyframeInterval: session.summary.keyframeInterval)
  }

  private func drawStatus(_ grid: inout ScreenGrid, _ layout: OpenLayout) {
    let model = session.model
    let row = layout.statusRow
    if let prompt = model.prompt {
      let used = grid.write(prompt.label + prompt.text, row: row, column: 0, style: .bold)
      grid.write(" ", row: row, column: used, limit: 1, style: .cursor)
      return
    }
    if let message = model.message {
      grid.write(message, row: row, column: 0, style: .warning)
      return
    }
    let keys = "? help  q quit"
    var parts = [
      "step \(NumberText.grouped(model.cursor)) of \(NumberText.grouped(session.lastStep))"
    ]
    if let row = try? session.cursorRow(), row.step == model.cursor {
      parts.append(LineFormat.elapsed(row.monotonicNanos))
      parts.append(Self.statusOrigin(row.origin))
    }
    let writer = session.writerState
    var status = writer.text
    if writer == .writing, session.model.cursor == (try? session.lastRow(model.listFilter))?.step {
      status += " (following)"
    }
    parts.append(status)
    if let search = model.search {
      let count = session.searchHits?.total.map { NumberText.counted($0, "hit") } ?? "counting…"
      parts.append("/" + search.pattern + "/ " + count)
    }
    if model.comparesWithMark, let mark = model.lastMark, let step = model.marks[mark] {
      parts.append("diff from mark \(mark) (step \(step))")
    }
    let text = " " + parts.joined(separator: " · ")
    let keysColumn = layout.width - keys.count - 1
    grid.write(
      text, row: row, column: 0, limit: max(1, keysColumn - 1),
      style: writer == .gone ? .warning : .plain)
    grid.write(keys, row: row, column: keysColumn, style: .dim)
  }

  // MARK: Help

  private func drawHelp(_ grid: inout ScreenGrid, _ layout: OpenLayout) {
    var lines: [(String, CellStyle)] = [("inspector open: keys", .bold), ("", .plain)]
    let keyWidth = KeyBindings.groups.flatMap(\.bindings).map(\.keys.count).max() ?? 0
    for group in KeyBindings.groups {
      lines.append((group.title, .bold))
      for binding in group.bindings {
        let pad = String(repeating: " ", count: keyWidth - binding.keys.count)
        lines.append(("  " + binding.keys + pad + "  " + binding.action, .plain))
      }
    }
    lines.append(("", .plain))
    lines.append(("any key closes this help", .dim))
    let boxWidth = min(layout.width - 2, (lines.map { DisplayWidth.of($0.0) }.max() ?? 0) + 4)
    let boxHeight = min(layout.height, lines.count + 2)
    let left = (layout.width - boxWidth) / 2
    let top = (layout.height - boxHeight) / 2
    for y in top..<(top + boxHeight) {
      grid.fill(row: y, from: left, to: left + boxWidth)
      grid.write("│", row: y, column: left, limit: 1, style: .border)
      grid.write("│", row: y, column: left + boxWidth - 1, limit: 1, style: .border)
    }
    let rule = String(repeating: "─", count: boxWidth - 2)
    grid.write("┌" + rule + "┐", row: top, column: left, style: .border)
    grid.write("└" + rule + "┘", row: top + boxHeight - 1, column: left, style: .border)
    for (index, line) in lines.prefix(boxHeight - 2).enumerated() {
      grid.write(
        line.0, row: top + 1 + index, column: left + 2, limit: boxWidth - 4, style: line.1)
    }
  }
}

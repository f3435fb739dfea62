import Foundation
import TraceKit

/// The interactive view of one trace: a source, the view's model, and what was computed for
/// it. Keys change the model (`handle`); `screen()` draws the model into a `ScreenGrid`;
/// `tick()` follows a trace that is still being written; `work(until:)` fills the timeline's
/// counts while no key is waiting. Nothing here talks to a terminal, so tests drive it with
/// scripted keys and compare screens.
///
/// ```swift
/// let session = try OpenSession(source: try TraceFileSource(path: "bug.rewind"))
/// session.resize(width: 120, height: 40)
/// try session.handle(.character("j"))
/// print(try session.screen().text)
/// ```
///
/// The source is the only thing it reads from (`TraceSource`): a trace file, one still being
/// written, or any other source of steps that answers the same questions.
package final class OpenSession {
  package let source: any TraceSource
  package private(set) var model: OpenModel
  package private(set) var width = 80
  package private(set) var height = 24
  /// Whether colour may be used when drawing (the batch commands' rule).
  package let colour: Bool

  private(set) var summary: TraceSummary
  private(set) var writerState: WriterState
  private var lastWriterCheck = ContinuousClock.now
  /// Counts of the search's hits, or of the list filter's matches, for the timeline.
  private(set) var searchHits: StepHistogram?
  private(set) var filterHits: StepHistogram?
  /// Steps per action path (the Tree tab), counted in slices while idle.
  private(set) var treeCounts: [String: Int] = [:]
  private var treeCountedThrough = 0
  private(set) var tree: ReducerTreeNode?
  private var treeLoaded = false
  private var cache = DetailCache()

  package init(
    source: any TraceSource, step: Int? = nil, colour: Bool = false
  ) throws(InspectorError) {
    self.source = source
    self.colour = colour
    summary = try source.summary()
    writerState = source.writerState()
    let last = summary.stepCount
    let start = step ?? 0
    guard start >= 0, start <= last else {
      throw .usage("step \(start) out of range 0...\(last)", where: "open --step")
    }
    model = OpenModel(cursor: start)
    // A step the recorder dropped: the next recorded one.
    if let row = try nearestRow(to: start, filter: StepFilter()) {
      model.cursor = row.step
      model.top = row.step
    }
  }

  // MARK: Size

  /// Rows of the steps list and of the detail pane.
  package var bodyHeight: Int { max(1, height - 3) }

  package var layout: OpenLayout { OpenLayout(width: width, height: height) }

  package func resize(width: Int, height: Int) {
    self.width = max(1, width)
    self.height = max(1, height)
    // The first size known: the starting step goes to the middle of the list.
    scrollToCursor(isPlaced ? .keep : .center)
    isPlaced = true
  }

  private var isPlaced = false

  // MARK: Reading

  var lastStep: Int { summary.stepCount }

  func firstRow(from step: Int, filter: StepFilter) throws(InspectorError) -> StepRow? {
    var filter = filter
    filter.from = step
    return try source.rows(matching: filter, limit: 1, descending: false).first
  }

  func lastRow(_ filter: StepFilter, through step: Int = .max) throws(InspectorError)
    -> StepRow?
  {
    var filter = filter
    filter.to = step
    return try source.rows(matching: filter, limit: 1, descending: true).first
  }

  /// The first row at or after `step` that passes `filter`, else the last one before it.
  func nearestRow(to step: Int, filter: StepFilter) throws(InspectorError) -> StepRow? {
    if let row = try firstRow(from: step, filter: filter) { return row }
    return try lastRow(filter, through: step)
  }

  /// Up to `count` rows of the list from `step` on.
  func listRows(from step: Int, count: Int) throws(InspectorError) -> [StepRow] {
    var filter = model.listFilter
    filter.from = step
    return try source.rows(matching: filter, limit: count, descending: false)
  }

  /// The row of the step under the cursor.
  func cursorRow() throws(InspectorError) -> StepRow? {
    try firstRow(from: model.cursor, filter: StepFilter(from: 0, to: model.cursor))
  }

  // MARK: Moving

  enum Placement {
    /// Scroll only as far as needed.
    case keep
    /// Put the cursor in the middle of the list.
    case center
    /// Put the cursor on the last row.
    case bottom
  }

  /// Moves the cursor to the list's step `offset` rows away (negative: up).
  func move(by offset: Int) throws(InspectorError) {
    guard offset != 0 else { return }
    var filter = model.listFilter
    let rows: [StepRow]
    if offset > 0 {
      filter.from = model.cursor + 1
      rows = try source.rows(matching: filter, limit: offset, descending: false)
    } else {
      filter.to = model.cursor - 1
      rows = try source.rows(matching: filter, limit: -offset, descending: true)
    }
    if let target = rows.last {
      model.cursor = target.step
      scrollToCursor(.keep)
    }
  }

  func go(to step: Int, placement: Placement = .center) {
    model.cursor = step
    scrollToCursor(placement)
  }

  /// Makes the cursor's row visible.
  func scrollToCursor(_ placement: Placement) {
    let rows = bodyHeight
    if placement == .keep, model.top <= model.cursor,
      let shown = try? listRows(from: model.top, count: rows),
      shown.contains(where: { $0.step == model.cursor })
    {
      return
    }
    var filter = model.listFilter
    filter.to = model.cursor - 1
    let above =
      switch placement {
      case .center: rows / 2
      case .bottom: rows - 1
      case .keep: model.cursor < model.top ? 0 : rows - 1
      }
    let before = (try? source.rows(matching: filter, limit: above, descending: true)) ?? []
    model.top = before.last?.step ?? model.cursor
  }

  // MARK: Keys

  /// Changes the model for one key. Read errors become the status line's message.
  package func handle(_ key: Key) throws(InspectorError) {
    model.message = nil
    if case .resize(let width, let height) = key {
      resize(width: width, height: height)
      return
    }
    if model.showsHelp {
      model.showsHelp = false
      return
    }
    if model.prompt != nil {
      try handlePrompt(key)
      return
    }
    do {
      try handleCommand(key)
    } catch {
      guard error.kind == .input else { throw error }
      model.message = Self.message(error)
    }
  }

  /// An error as the status line shows it: what went wrong, and where when that is the trace
  /// (a usage error's place is the prompt the person just typed in).
  static func message(_ error: InspectorError) -> String {
    error.kind == .usage || error.location.isEmpty
      ? error.what : error.what + " (" + error.location + ")"
  }

  private func handleCommand(_ key: Key) throws(InspectorError) {
    switch key {
    case .character("q"), .control("c"):
      model.quits = true
    case .character("?"):
      model.showsHelp = true
    case .up, .character("k"):
      if model.focus == .detail { moveDetail(by: -1) } else { try move(by: -1) }
    case .down, .character("j"):
      if model.focus == .detail { moveDetail(by: 1) } else { try move(by: 1) }
    case .pageUp:
      if model.focus == .detail { moveDetail(by: -bodyHeight) } else { try move(by: -bodyHeight) }
    case .pageDown:
      if model.focus == .detail { moveDetail(by: bodyHeight) } else { try move(by: bodyHeight) }
    case .character("g"), .home:
      if model.focus == .detail {
        moveDetail(by: -Int(Int32.max))
      } else if let row = try firstRow(from: 0, filter: model.listFilter) {
        go(to: row.step, placement: .keep)
      }
    case .character("G"), .end:
      if model.focus == .detail {
        moveDetail(by: Int(Int32.max))
      } else if let row = try lastRow(model.listFilter) {
        go(to: row.step, placement: .bottom)
      }
    case .tab:
      model.tab = OpenModel.Tab(rawValue: (model.tab.rawValue + 1) % 5) ?? .diff
    case .backTab:
      model.tab = OpenModel.Tab(rawValue: (model.tab.rawValue + 4) % 5) ?? .diff
    case .character(let digit) where ("1"..."5").contains(digit):
      model.tab = OpenModel.Tab(rawValue: Int(String(digit))! - 1) ?? .diff
    case .right, .character("l"):
      if model.focus == .detail, model.tab == .state {
        try setOpen(true)
      } else {
        model.focus = .detail
      }
    case .left, .character("h"):
      if model.focus == .detail, model.tab == .state, try setOpen(false) { break }
      model.focus = .steps
    case .escape:
      if model.focus == .detail {
        model.focus = .steps
      } else {
        model.search = nil
        searchHits = nil
      }
    case .enter, .character(" "):
      if model.focus == .steps {
        model.focus = .detail
      } else {
        try activateDetailLine()
      }
    case .character(":"): model.prompt = .init(kind: .goTo)
    case .character("/"): model.prompt = .init(kind: .search)
    case .character("f"): model.prompt = .init(kind: .pathFilter)
    case .character("m"): model.prompt = .init(kind: .setMark)
    case .character("'"): model.prompt = .init(kind: .jumpToMark)
    case .character("n"): try nextHit(forward: true)
    case .character("N"): try nextHit(forward: false)
    case .character("]"): try nextChange(forward: true)
    case .character("["): try nextChange(forward: false)
    case .character("o"):
      try setFilter(path: model.pathFilter, origin: model.originFilter.next)
    case .character("d"):
      if model.comparesWithMark {
        model.comparesWithMark = false
      } else if model.lastMark != nil {
        model.comparesWithMark = true
        model.tab = .diff
      } else {
        model.message = "no mark yet: set one with m and a letter, then move and press d"
      }
    case .character("p"), .character("J"), .character("r"), .character("c"):
      steer(key)
    case .mouse(let mouse):
      try handleMouse(mouse)
    default:
      break
    }
  }

  /// `p`, `J`, `r`, `c`: pause, jump to the step under the cursor, resume, continue from
  /// here: only for a running app.
  private func steer(_ key: Key) {
    guard let steering = source as? any LiveSteering else {
      model.message = "p, J, r and c steer a running app: inspector open --attach PID|NAME"
      return
    }
    switch key {
    case .character("p"): model.message = steering.pause()
    case .character("J"): model.message = steering.jump(to: model.cursor)
    case .character("r"): model.message = steering.resume()
    default: model.message = steering.continueFromHere()
    }
  }

  private func handlePrompt(_ key: Key) throws(InspectorError) {
    guard var prompt = model.prompt else { return }
    if prompt.takesOneKey {
      model.prompt = nil
      guard case .character(let letter) = key, letter.isLetter else { return }
      if prompt.kind == .setMark {
        model.marks[letter] = model.cursor
        model.lastMark = letter
        model.message = "mark \(letter) set on step \(model.cursor)"
      } else if let step = model.marks[letter] {
        go(to: step)
      } else {
        model.message = "no mark \(letter)"
      }
      return
    }
    switch key {
    case .escape, .control("c"):
      model.prompt = nil
    case .backspace:
      if prompt.text.isEmpty {
        model.prompt = nil
      } else {
        prompt.text.removeLast()
        model.prompt = prompt
      }
    case .enter:
      model.prompt = nil
      do {
        try submit(prompt)
      } catch {
        guard error.kind == .input || error.kind == .usage else { throw error }
        model.message = Self.message(error)
      }
    case .character(let character):
      prompt.text.append(character)
      model.prompt = prompt
    default:
      break
    }
  }

  private func submit(_ prompt: OpenModel.Prompt) throws(InspectorError) {
    let text = prompt.text.trimmingCharacters(in: .whitespaces)
    switch prompt.kind {
    case .goTo:
      guard !text.isEmpty else { return }
      guard let step = Int(text), step >= 0 else {
        model.message = "not a step number: " + EscapedText.quoted(text)
        return
      }
      guard step <= lastStep else {
        model.message = "step \(step) out of range 0...\(lastStep)"
        return
      }
      let filter = model.listFilter
      if let row = try nearestRow(to: step, filter: filter) {
        go(to: row.step)
        if row.step != step {
          model.message =
            model.isFiltered
            ? "step \(step) is not in the filtered list; nearest: \(row.step)"
            : "step \(step) was not recorded; nearest: \(row.step)"
        }
      }
    case .search:
      guard !text.isEmpty else {
        model.search = nil
        searchHits = nil
        return
      }
      try search(text)
    case .pathFilter:
      try setFilter(path: text.isEmpty ? nil : text, origin: model.originFilter)
    case .setMark, .jumpToMark:
      break
    }
  }

  // MARK: Search and filters

  private func search(_ pattern: String) throws(InspectorError) {
    guard let paths = try matchingPaths(pattern) else {
      model.message = "invalid regular expression " + EscapedText.quoted(pattern)
      return
    }
    guard !paths.isEmpty else {
      model.message = "no action path matches /" + EscapedText.plain(pattern) + "/"
      return
    }
    model.search = OpenModel.Search(pattern: pattern, actionPaths: paths)
    searchHits = StepHistogram(filter: StepFilter(actionPaths: paths), lastStep: lastStep)
    if !model.search!.actionPaths.contains((try cursorRow())?.actionPath ?? "") {
      try nextHit(forward: true)
    }
  }

  /// The trace's action paths the regular expression matches; nil when it is not one.
  private func matchingPaths(_ pattern: String) throws(InspectorError) -> Set<String>? {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
    return Set(
      try source.actionPaths().filter { path in
        regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
      })
  }

  /// The next (or previous) step whose action path the search matched, in the list.
  private func nextHit(forward: Bool) throws(InspectorError) {
    guard let search = model.search else {
      model.message = "no search: type / and a regular expression"
      return
    }
    var filter = model.listFilter
    filter.actionPaths = search.actionPaths
    if let step = try seek(filter, forward: forward, hits: searchHits) {
      go(to: step)
    } else {
      model.message =
        forward ? "no hit after step \(model.cursor)" : "no hit before step \(model.cursor)"
    }
  }

  /// `[` and `]`: the step before or after the cursor that changed the path under the State
  /// tab's cursor (the whole state when nothing is selected there).
  private func nextChange(forward: Bool) throws(InspectorError) {
    let path = try stateCursorPath() ?? .root
    var filter = model.listFilter
    let text = path.components.isEmpty ? "" : path.description
    filter.changedPath = text
    if let pathFilter = model.pathFilter, !text.isEmpty {
      // Both must hold: keep the list's filter and look for changes of the State path in it.
      guard let row = try seekChange(text, within: pathFilter, forward: forward) else {
        let direction = forward ? "after" : "before"
        model.message =
          "no change of \(EscapedText.plain(text)) \(direction) step \(model.cursor)"
        return
      }
      go(to: row)
      return
    }
    if let step = try seek(filter, forward: forward, hits: nil) {
      go(to: step)
    } else {
      let name = text.isEmpty ? "the state" : EscapedText.plain(text)
      model.message = "no change of \(name) \(forward ? "after" : "before") step \(model.cursor)"
    }
  }

  private func seekChange(
    _ path: String, within listPath: String, forward: Bool
  ) throws(InspectorError) -> Int? {
    var filter = model.listFilter
    filter.changedPath = path
    var step = model.cursor
    while let found = try seek(filter, forward: forward, hits: nil, from: step) {
      let row = try firstRow(from: found, filter: StepFilter(from: found, to: found))
      if row.map({ row in
        row.changedPaths.contains {
          PathQuery.isPrefix(listPath, of: $0) || PathQuery.isPrefix($0, of: listPath)
        }
      }) == true {
        return found
      }
      step = found
    }
    return nil
  }

  /// The first step after (or before) the cursor that passes `filter`. With the buckets of a
  /// histogram counted, the search skips to the bucket holding the next hit instead of
  /// scanning every step between.
  private func seek(
    _ filter: StepFilter, forward: Bool, hits: StepHistogram?, from: Int? = nil
  ) throws(InspectorError) -> Int? {
    let start = from ?? model.cursor
    var filter = filter
    if let hits, hits.lastStep >= start {
      let bucket = hits.range(ofBucket: hits.bucket(of: start))
      // First the rest of the cursor's bucket.
      filter.from = forward ? start + 1 : bucket.lowerBound
      filter.to = forward ? bucket.upperBound : start - 1
      if filter.from <= filter.to,
        let row = try source.rows(matching: filter, limit: 1, descending: !forward).first
      {
        return row.step
      }
      switch forward ? hits.nextHitBucket(after: start) : hits.previousHitBucket(before: start) {
      case .none:
        return nil
      case .bucket(let index):
        let range = hits.range(ofBucket: index)
        filter.from = range.lowerBound
        filter.to = range.upperBound
        return try source.rows(matching: filter, limit: 1, descending: !forward).first?.step
      case .unknown:
        break
      }
    }
    filter.from = forward ? start + 1 : 0
    filter.to = forward ? .max : start - 1
    guard filter.from <= filter.to else { return nil }
    return try source.rows(matching: filter, limit: 1, descending: !forward).first?.step
  }

  private func setFilter(path: String?, origin: OpenModel.OriginFilter) throws(InspectorError) {
    var canonical: String?
    if let path {
      let query = try PathQuery(path, command: "open")
      canonical = query.path.components.isEmpty ? "" : query.path.description
    }
    var candidate = model
    candidate.pathFilter = canonical
    candidate.originFilter = origin
    let filter = candidate.listFilter
    guard let row = try nearestRow(to: model.cursor, filter: filter) else {
      let what = [
        canonical.map { "changed " + EscapedText.plain($0) },
        origin == .all ? nil : "came from " + (origin == .user ? "the user" : "an effect"),
      ].compactMap { $0 }.joined(separator: " and ")
      model.message = "no step " + what
      return
    }
    model.pathFilter = canonical
    model.originFilter = origin
    filterHits = candidate.isFiltered ? StepHistogram(filter: filter, lastStep: lastStep) : nil
    go(to: row.step)
  }

  // MARK: The detail pane

  /// The lines of the current tab (computed once per step, tab and width).
  package func detailLines() throws(InspectorError) -> [DetailLine] {
    let key = DetailCache.Key(
      tab: model.tab, step: model.cursor, base: diffBase(), width: layout.detailWidth,
      expanded: model.tab == .state ? model.expanded : [],
      treeCounts: model.tab == .tree ? treeCountsIfDone : nil, lastStep: lastStep)
    if let lines = cache.lines(for: key) { return lines }
    let lines: [DetailLine]
    do {
      lines = try buildDetail(key)
    } catch {
      guard error.kind == .input else { throw error }
      lines = [DetailLine(error.line, style: .warning)]
    }
    cache.store(lines, for: key)
    return lines
  }

  /// The step the Diff tab compares the cursor with: the mark, or the previous recorded step.
  func diffBase() -> Int? {
    if let base = model.comparisonBase { return base }
    guard model.cursor > 0 else { return nil }
    return (try? lastRow(StepFilter(), through: model.cursor - 1))?.step
  }

  private var treeCountsIfDone: [String: Int]? {
    treeCountedThrough > lastStep ? treeCounts : nil
  }

  private func buildDetail(_ key: DetailCache.Key) throws(InspectorError) -> [DetailLine] {
    guard let row = try cursorRow() else { return [] }
    // A line is written one column in, and a diff line starts with its two-column mark.
    let width = key.width - 3
    switch key.tab {
    case .diff:
      return try DetailContent.diff(
        source, row: row, base: key.base, isMark: model.comparisonBase != nil,
        stateType: summary.stateType, width: width)
    case .state:
      return try DetailContent.state(
        source, step: row.step, expanded: model.expanded, stateType: summary.stateType,
        width: width)
    case .action:
      return try DetailContent.action(source, row: row, width: width)
    case .effects:
      return try DetailContent.effects(source, row: row)
    case .tree:
      if !treeLoaded {
        tree = try source.tree()
        treeLoaded = true
      }
      return DetailContent.tree(
        tree, actionPath: row.actionPath, step: row.step, counts: key.treeCounts)
    }
  }

  private func moveDetail(by offset: Int) {
    let count = (try? detailLines().count) ?? 0
    var position = model[position: model.tab]
    position.cursor = max(0, min(count - 1, position.cursor + offset))
    model[position: model.tab] = position
  }

  /// The path of the State line under the tab's cursor.
  func stateCursorPath() throws(InspectorError) -> TracePath? {
    guard model.tab == .state || model.positions[.state] != nil else { return nil }
    let saved = model.tab
    model.tab = .state
    defer { model.tab = saved }
    let lines = try detailLines()
    let index = min(model[position: .state].cursor, lines.count - 1)
    return index >= 0 ? lines[index].path : nil
  }

  /// Opens or closes the State value under the cursor; false when there is nothing to do.
  @discardableResult
  private func setOpen(_ open: Bool) throws(InspectorError) -> Bool {
    let lines = try detailLines()
    let index = model[position: .state].cursor
    guard lines.indices.contains(index), let path = lines[index].path else { return false }
    if lines[index].isOpen == !open, !path.components.isEmpty {
      if open { model.expanded.insert(path) } else { model.expanded.remove(path) }
      return true
    }
    if !open, let parent = try parentLine(of: path, in: lines) {
      // On a leaf or a closed value, ← goes to the value around it.
      model[position: .state].cursor = parent
      return true
    }
    return false
  }

  private func parentLine(of path: TracePath, in lines: [DetailLine]) throws(InspectorError)
    -> Int?
  {
    guard !path.components.isEmpty else { return nil }
    var components = path.components
    while !components.isEmpty {
      components.removeLast()
      let parent = TracePath(components)
      if let index = lines.firstIndex(where: { $0.path == parent && $0.isOpen == true }) {
        return index
      }
    }
    return nil
  }

  private func activateDetailLine() throws(InspectorError) {
    let lines = try detailLines()
    let index = model[position: model.tab].cursor
    guard lines.indices.contains(index) else { return }
    let line = lines[index]
    if model.tab == .state, let path = line.path, let open = line.isOpen,
      !path.components.isEmpty
    {
      if open { model.expanded.remove(path) } else { model.expanded.insert(path) }
    } else if let step = line.step {
      guard step <= lastStep else { return }
      if let row = try firstRow(from: step, filter: model.listFilter), row.step == step {
        go(to: step)
      } else {
        // The list's filter hides the step: show it unfiltered.
        model.pathFilter = nil
        model.originFilter = .all
        filterHits = nil
        go(to: step)
      }
    }
  }

  // MARK: Mouse

  private func handleMouse(_ mouse: Key.Mouse) throws(InspectorError) {
    let layout = self.layout
    let inSteps = mouse.column < layout.stepsWidth
    let inBody = mouse.row >= 1 && mouse.row <= bodyHeight
    switch mouse.action {
    case .wheelUp, .wheelDown:
      let delta = mouse.action == .wheelUp ? -3 : 3
      if inSteps || !inBody { try move(by: delta) } else { scrollDetail(by: delta) }
    case .press:
      if mouse.row == 0, !inSteps {
        if let tab = layout.tab(atColumn: mouse.column) { model.tab = tab }
      } else if inBody, inSteps {
        model.focus = .steps
        let rows = try listRows(from: model.top, count: bodyHeight)
        if rows.indices.contains(mouse.row - 1) { model.cursor = rows[mouse.row - 1].step }
      } else if inBody, mouse.column > layout.stepsWidth {
        model.focus = .detail
        let count = try detailLines().count
        let line = model[position: model.tab].top + mouse.row - 1
        if line < count { model[position: model.tab].cursor = line }
      } else if mouse.row == layout.timelineRow, lastStep > 0 {
        let step = Timeline.step(atColumn: mouse.column, width: width, lastStep: lastStep)
        let filter = model.listFilter
        if let row = try nearestRow(to: step, filter: filter) {
          go(to: row.step)
        }
      }
    }
  }

  private func scrollDetail(by delta: Int) {
    let count = (try? detailLines().count) ?? 0
    var position = model[position: model.tab]
    position.top = max(0, min(max(0, count - bodyHeight), position.top + delta))
    position.cursor = max(position.top, min(position.top + bodyHeight - 1, position.cursor))
    model[position: model.tab] = position
  }

  /// Keeps each tab's cursor inside its lines and visible.
  func clampDetail(lineCount: Int) {
    var position = model[position: model.tab]
    position.cursor = max(0, min(lineCount - 1, position.cursor))
    if position.cursor < position.top { position.top = position.cursor }
    if position.cursor >= position.top + bodyHeight {
      position.top = position.cursor - bodyHeight + 1
    }
    position.top = max(0, min(position.top, max(0, lineCount - bodyHeight)))
    model[position: model.tab] = position
  }

  // MARK: Live

  /// Follows a trace that is still being written: new steps appear, and a cursor on the last
  /// step moves to the new last one (tail); elsewhere it stays. Returns whether anything
  /// changed.
  @discardableResult
  package func tick() throws(InspectorError) -> Bool {
    guard !summary.isComplete else { return false }
    let previousLast = lastStep
    // Queries see new commits at once; the tail is the last step the view knew of.
    let wasTail = (try? lastRow(model.listFilter, through: previousLast))?.step == model.cursor
    try source.refresh()
    summary = try source.summary()
    var changed = false
    if ContinuousClock.now - lastWriterCheck > .milliseconds(500) || summary.isComplete {
      lastWriterCheck = .now
      let state = source.writerState()
      changed = state != writerState
      writerState = state
    }
    guard lastStep != previousLast else { return changed }
    searchHits?.grow(to: lastStep)
    filterHits?.grow(to: lastStep)
    if let search = model.search {
      // New steps may bring action paths the search matches that did not exist before.
      let paths = try matchingPaths(search.pattern) ?? []
      if paths != search.actionPaths {
        model.search?.actionPaths = paths
        searchHits = StepHistogram(filter: StepFilter(actionPaths: paths), lastStep: lastStep)
      }
    }
    if wasTail, let row = try lastRow(model.listFilter) {
      model.cursor = row.step
      scrollToCursor(.keep)
    }
    return true
  }

  // MARK: Idle work

  /// Counts a few buckets of the histograms (and of the Tree tab) until `deadline`; returns
  /// whether work remains.
  package func work(until deadline: ContinuousClock.Instant) throws(InspectorError) -> Bool {
    while ContinuousClock.now < deadline {
      if let filter = searchHits?.nextPending() {
        searchHits?.record(try source.count(matching: filter))
      } else if let filter = filterHits?.nextPending() {
        filterHits?.record(try source.count(matching: filter))
      } else if model.tab == .tree, treeCountedThrough <= lastStep {
        let from = max(1, treeCountedThrough)
        let to = min(lastStep, from + 16_383)
        if from <= to {
          for (path, count) in try source.actionCounts(from: from, to: to) {
            treeCounts[path, default: 0] += count
          }
        }
        treeCountedThrough = to + 1
      } else {
        return false
      }
    }
    return hasPendingWork
  }

  package var hasPendingWork: Bool {
    searchHits?.isComplete == false || filterHits?.isComplete == false
      || (model.tab == .tree && treeCountedThrough <= lastStep)
  }

  // MARK: Drawing

  /// The frame for the current model.
  package func screen() throws(InspectorError) -> ScreenGrid {
    try OpenScreen(session: self).draw()
  }
}

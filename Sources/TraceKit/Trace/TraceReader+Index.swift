import Foundation

// Step rows: decoding the interned ids of the `steps` table and filtering by them.

extension TraceReader {
  /// The rows that pass `filter`, in order. The action-path and changed-path conditions are
  /// decided once per distinct `actions` / `path_sets` entry, and SQLite selects the steps by
  /// id, so a filter over a million steps decodes only the rows it returns.
  ///
  /// ```swift
  /// let rows = try reader.rows(matching: StepFilter(actionPrefix: "splash"))
  /// ```
  public func rows(matching filter: StepFilter) throws(TraceError) -> [StepRow] {
    try rows(matching: filter, limit: nil)
  }

  /// `rows(matching:)` cut to the first `limit` rows, in descending step order when asked:
  /// the next or previous step that passes a filter, a window of a filtered list.
  ///
  /// ```swift
  /// let next = try reader.rows(matching: StepFilter(from: 501, changedPath: "todos"), limit: 1)
  /// ```
  public func rows(
    matching filter: StepFilter, limit: Int?, descending: Bool = false
  ) throws(TraceError) -> [StepRow] {
    // One read transaction: the ids chosen below and the steps selected by them come from
    // the same commit, even while a writer appends.
    let began = (try? database.execute("BEGIN")) != nil
    defer { if began { try? database.execute("COMMIT") } }
    let conditions = try sqlConditions(filter)
    var rows: [StepRow] = []
    do {
      let order = descending ? "DESC" : "ASC"
      let limitClause = limit.map { " LIMIT \(max(0, $0))" } ?? ""
      let statement = try database.prepare(
        "SELECT \(Self.rowColumns) FROM steps WHERE \(conditions.joined(separator: " AND "))"
          + " ORDER BY step \(order)\(limitClause)")
      defer { statement.reset() }
      try statement.bind(filter.from, at: 1)
      try statement.bind(filter.to, at: 2)
      while try statement.step() {
        let row = try decodeRow(statement)
        // The SQL conditions select by id; `matches` keeps the result exactly the filter's.
        if filter.matches(row) { rows.append(row) }
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw queryError(error)
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
    return rows
  }

  /// The `WHERE` conditions that select the filter's steps by interned id; the first two bind
  /// `from` and `to`.
  func sqlConditions(_ filter: StepFilter) throws(TraceError) -> [String] {
    try reloadInterned()
    var conditions = ["step >= ?", "step <= ?"]
    if let prefix = filter.actionPrefix {
      let ids = interned.actionPaths.filter { StepFilter.path($0.value, isWithin: prefix) }.keys
      conditions.append("action IN (\(Self.idList(ids)))")
    }
    if let paths = filter.actionPaths {
      let ids = interned.actionPaths.filter { paths.contains($0.value) }.keys
      conditions.append("action IN (\(Self.idList(ids)))")
    }
    if let changedPath = filter.changedPath {
      var ids: [Int64] = []
      for id in interned.pathSetJSON.keys {
        let paths = try pathSet(id, step: nil)
        let hit = paths.contains { changed in
          StepFilter.path(changed, isWithin: changedPath)
            || StepFilter.path(changedPath, isWithin: changed)
        }
        if hit { ids.append(id) }
      }
      conditions.append("changed IN (\(Self.idList(ids)))")
    }
    switch filter.origin {
    case nil: break
    case .initial?: conditions.append("origin = 0")
    case .user?: conditions.append("origin = 1")
    case .effect?: conditions.append("origin >= 2")
    case .effectID(let uuid)?:
      let ids = interned.effectIDs.filter { UUID(uuidString: $0.value) == uuid }.keys
      conditions.append("origin IN (\(Self.idList(ids)))")
    }
    return conditions
  }

  private static func idList(_ ids: some Sequence<Int64>) -> String {
    let list = ids.sorted().map(String.init).joined(separator: ",")
    // `IN ()` is valid SQLite and selects nothing, but a NULL says so to a person reading it.
    return list.isEmpty ? "NULL" : list
  }

  /// Decodes a row selected with `rowColumns`. Every column is checked: a step number within
  /// `0…maximumStep`, integer ids, non-negative nanoseconds, a wall time that is a number.
  func decodeRow(_ statement: SQLiteStatement) throws(TraceError) -> StepRow {
    let columns = try checkedColumns(statement)
    let step = columns.step
    return StepRow(
      step: step,
      monotonicNanos: columns.monotonicNanos,
      wallTime: columns.wallTime,
      origin: try origin(columns.origin, step: step),
      actionPath: try actionPath(columns.action, step: step),
      changedPaths: try pathSet(columns.changed, step: step),
      stateHash: columns.stateHash,
      reducerNanos: columns.reducerNanos)
  }

  /// `decodeRow` without building the row's strings and array: the same checks in the same
  /// order, with the same messages (the action and path-set ids must name an entry), for a
  /// replay that uses only the step, its origin and its state hash.
  func decodeEntry(_ statement: SQLiteStatement) throws(TraceError) -> StepIndexEntry {
    try entry(checkedColumns(statement))
  }

  /// `decodeEntry` of a row read through a `SQLiteRowCapture`; nil when one of its columns is
  /// not what `checkedColumns` lets through at once: that row's columns are read again for
  /// the failure and its message.
  func decodeEntry(_ row: SQLiteRowCapture.Row) throws(TraceError) -> StepIndexEntry? {
    guard let columns = try quickColumns(row) else { return nil }
    return try entry(columns)
  }

  /// The rest of `decodeEntry`, once the columns are checked.
  @inline(__always)
  private func entry(_ columns: CheckedColumns) throws(TraceError) -> StepIndexEntry {
    let step = columns.step
    let origin = try origin(columns.origin, step: step)
    // Consecutive rows mostly name the ids the previous rows named: those were checked then.
    if interned.lastActionPath?.id != columns.action
      && interned.previousActionPath?.id != columns.action
    {
      _ = try actionPath(columns.action, step: step)
    }
    try checkPathSet(columns.changed, step: step)
    return StepIndexEntry(
      step: step, origin: origin, stateHash: columns.stateHash, changed: columns.changed)
  }

  /// `decodeEntry` with the row's action path, looked up as `decodeRow` looks it up.
  func decodeEntryAndActionPath(
    _ statement: SQLiteStatement
  ) throws(TraceError) -> (entry: StepIndexEntry, actionPath: String) {
    let columns = try checkedColumns(statement)
    let step = columns.step
    let origin = try origin(columns.origin, step: step)
    let actionPath = try actionPath(columns.action, step: step)
    try checkPathSet(columns.changed, step: step)
    let entry = StepIndexEntry(
      step: step, origin: origin, stateHash: columns.stateHash, changed: columns.changed)
    return (entry, actionPath)
  }

  /// A row's columns, each checked, with its ids not yet looked up.
  private struct CheckedColumns {
    var step: Int
    var monotonicNanos: UInt64
    var wallTime: Double
    var origin: Int64
    var action: Int64
    var changed: Int64
    var stateHash: UInt64
    var reducerNanos: UInt64
  }

  private func checkedColumns(_ statement: SQLiteStatement) throws(TraceError) -> CheckedColumns {
    if let columns = try quickColumns(statement) { return columns }
    return try columnByColumn(statement)
  }

  /// The row's columns when each is what a row mostly holds: every integer column in its
  /// range, read once, and a wall time; nil otherwise, and `columnByColumn` then finds the
  /// first column that is wrong and its message.
  @inline(__always)
  private func quickColumns(_ row: some IndexRowColumns) throws(TraceError) -> CheckedColumns? {
    guard let step = row.integer(at: 0), Self.stepRange.contains(step),
      let mono = row.integer(at: 1), mono >= 0,
      let origin = row.integer(at: 3),
      let action = row.integer(at: 4),
      let changed = row.integer(at: 5),
      let hash = row.integer(at: 6),
      let reducer = row.integer(at: 7), reducer >= 0
    else {
      return nil
    }
    let wallTime: Double
    if let offset = row.integer(at: 2) {
      let start = try startWallTime(step: Int(step))
      wallTime = start + Double(mono &+ offset) / 1e9
    } else if let real = row.real(at: 2) {
      wallTime = real
    } else {
      return nil
    }
    return CheckedColumns(
      step: Int(step), monotonicNanos: UInt64(mono), wallTime: wallTime, origin: origin,
      action: action, changed: changed, stateHash: UInt64(bitPattern: hash),
      reducerNanos: UInt64(reducer))
  }

  /// `checkedColumns`, checking one column after another: the first that is wrong throws.
  private func columnByColumn(_ statement: SQLiteStatement) throws(TraceError) -> CheckedColumns {
    let file = path
    let step = try Self.step(statement, 0, "step") { reason in
      TraceError(.corruptIndex(reason), file: file)
    }
    func damaged(_ reason: String) -> TraceError {
      TraceError(.corruptIndex(reason), file: file, step: step)
    }
    let mono = try Self.integer(statement, 1, "mono_ns", in: Self.nonNegative, damaged)
    let origin = try Self.integer(statement, 3, "origin", in: Self.anyInteger, damaged)
    let action = try Self.integer(statement, 4, "action", in: Self.anyInteger, damaged)
    let changed = try Self.integer(statement, 5, "changed", in: Self.anyInteger, damaged)
    let hash = try Self.integer(statement, 6, "state_hash", in: Self.anyInteger, damaged)
    let reducer = try Self.integer(statement, 7, "reducer_ns", in: Self.nonNegative, damaged)
    let wallTime: Double
    if let offset = statement.integer(at: 2) {
      let start = try startWallTime(step: step)
      wallTime = start + Double(mono &+ offset) / 1e9
    } else if statement.isReal(at: 2) {
      wallTime = statement.double(at: 2)
    } else {
      throw damaged("wall is \(Self.shown(statement, 2)), not a time")
    }
    return CheckedColumns(
      step: step, monotonicNanos: UInt64(mono), wallTime: wallTime, origin: origin,
      action: action, changed: changed, stateHash: UInt64(bitPattern: hash),
      reducerNanos: UInt64(reducer))
  }

  /// The wall time of step 0, from which a row's own is derived: read once, then kept.
  /// Inlined: every row of a scan asks for it, and a call cost more than the look.
  @inline(__always)
  private func startWallTime(step: Int) throws(TraceError) -> Double {
    if let start = interned.startWallTime { return start }
    return try readStartWallTime(step: step)
  }

  private func readStartWallTime(step: Int) throws(TraceError) -> Double {
    let start: Double?
    do {
      let statement = try database.prepare("SELECT wall FROM steps WHERE step = 0")
      defer { statement.reset() }
      start = try statement.step() && statement.isReal(at: 0) ? statement.double(at: 0) : nil
    } catch {
      throw queryError(error, step: step)
    }
    guard let start else {
      throw TraceError(
        .corruptIndex("step 0 has no wall time to derive this step's from"), file: path,
        step: step)
    }
    interned.startWallTime = start
    return start
  }

  /// The origin a row's `origin` column names, checked. Inlined for the two codes most rows
  /// hold, a user's step and the initial one, which name no other step and so need no check
  /// (two calls a row otherwise).
  @inline(__always)
  private func origin(_ id: Int64, step: Int) throws(TraceError) -> StepOrigin {
    if id == 1 { return .user }
    if id == 0 { return .initial }
    return try storedOrigin(id, step: step)
  }

  private func storedOrigin(_ id: Int64, step: Int) throws(TraceError) -> StepOrigin {
    if let known = StepOrigin(storedCode: id) {
      return try checked(known, code: id, step: step)
    }
    switch id {
    case ..<2:
      throw TraceError(.corruptIndex("origin \(id) is no known origin"), file: path, step: step)
    default:
      if let known = interned.origins[id] { return try checked(known, code: id, step: step) }
      if interned.effectIDs[id] == nil { try reloadInterned() }
      guard let text = interned.effectIDs[id] else {
        throw TraceError(.corruptIndex("origin \(id) is not in origins"), file: path, step: step)
      }
      let origin: StepOrigin
      if let uuid = UUID(uuidString: text) {
        origin = .effect(uuid)
      } else if let inspector = StepOrigin(storageText: text), inspector.isInspectorStep {
        origin = inspector
      } else {
        throw TraceError(
          .corruptIndex("origin \(id) has effect id '\(text)', not a UUID"), file: path,
          step: step)
      }
      interned.origins[id] = origin
      return try checked(origin, code: id, step: step)
    }
  }

  /// The origin, unless it names a step that is not earlier than its own: a `.send` is
  /// reduced after the step whose reducer returned it, an inspector jumps to a recorded step.
  private func checked(
    _ origin: StepOrigin, code: Int64, step: Int
  ) throws(TraceError) -> StepOrigin {
    guard let named = origin.namedStep, named >= step else { return origin }
    let what =
      switch origin {
      case .jump: "a jump to step \(named)"
      case .continued: "a continue from step \(named)"
      default: "a send of step \(named)"
      }
    throw TraceError(
      .corruptIndex("origin \(code) names \(what), not an earlier step"), file: path,
      step: step)
  }

  private func actionPath(_ id: Int64, step: Int) throws(TraceError) -> String {
    if let last = interned.lastActionPath, last.id == id { return last.path }
    if let previous = interned.previousActionPath, previous.id == id {
      interned.previousActionPath = interned.lastActionPath
      interned.lastActionPath = previous
      return previous.path
    }
    if let known = interned.actionPaths[id] {
      interned.previousActionPath = interned.lastActionPath
      interned.lastActionPath = (id, known)
      return known
    }
    try reloadInterned()
    guard let path = interned.actionPaths[id] else {
      throw TraceError(.corruptIndex("action \(id) is not in actions"), file: path, step: step)
    }
    interned.lastActionPath = (id, path)
    return path
  }

  /// Checks that `id` names a path set, as `pathSet` does, without handing the set out.
  /// Consecutive rows mostly name the set the previous row named, which was checked then.
  @inline(__always)
  private func checkPathSet(_ id: Int64, step: Int) throws(TraceError) {
    if interned.lastPathSet?.id != id { _ = try pathSet(id, step: step) }
  }

  /// The texts of changed-path set `id` (a row's `changed` column), as `StepRow.changedPaths`
  /// gives them; an id that names no set, or a set that is not a JSON array of strings,
  /// throws what reading the row throws.
  package func changedPathSet(_ id: Int64, step: Int) throws(TraceError) -> [String] {
    try pathSet(id, step: step)
  }

  private func pathSet(_ id: Int64, step: Int?) throws(TraceError) -> [String] {
    if let last = interned.lastPathSet, last.id == id { return last.paths }
    if let known = interned.pathSets[id] {
      interned.lastPathSet = (id, known)
      return known
    }
    if interned.pathSetJSON[id] == nil { try reloadInterned() }
    guard let json = interned.pathSetJSON[id] else {
      throw TraceError(
        .corruptIndex("changed path set \(id) is not in path_sets"), file: path, step: step)
    }
    guard case .array(let elements)? = try? TraceValue(json: json) else {
      throw TraceError(
        .corruptIndex("path set \(id) is not a JSON array"), file: path, step: step)
    }
    var paths: [String] = []
    paths.reserveCapacity(elements.count)
    for element in elements {
      guard case .string(let text) = element else {
        throw TraceError(
          .corruptIndex("path set \(id) holds a non-string"), file: path, step: step)
      }
      paths.append(text)
    }
    interned.pathSets[id] = paths
    interned.lastPathSet = (id, paths)
    return paths
  }

  /// Reads the `actions`, `path_sets` and `origins` tables again (they only ever grow).
  func reloadInterned() throws(TraceError) {
    interned.lastActionPath = nil
    interned.previousActionPath = nil
    interned.lastPathSet = nil
    do {
      let actions = try database.prepare("SELECT id, path FROM actions")
      defer { actions.reset() }
      while try actions.step() {
        interned.actionPaths[actions.int64(at: 0)] = actions.text(at: 1)
      }
      let sets = try database.prepare("SELECT id, paths FROM path_sets")
      defer { sets.reset() }
      while try sets.step() {
        let id = sets.int64(at: 0)
        let json = sets.withBlob(at: 1) { Array($0) }
        if interned.pathSetJSON[id] != json {
          interned.pathSetJSON[id] = json
          interned.pathSets[id] = nil
        }
      }
      let origins = try database.prepare("SELECT id, effect_id FROM origins")
      defer { origins.reset() }
      while try origins.step() {
        interned.effectIDs[origins.int64(at: 0)] = origins.text(at: 1)
      }
    } catch {
      throw queryError(error)
    }
  }
}

/// The columns of a `steps` row as `TraceReader.quickColumns` reads them: from the statement
/// that selected them, or from the function that captured them (`SQLiteRowCapture.Row`).
protocol IndexRowColumns {
  /// The column's integer, or nil when it holds anything else.
  func integer(at column: Int32) -> Int64?
  /// The column's floating-point value, or nil when it holds anything else.
  func real(at column: Int32) -> Double?
}

extension SQLiteStatement: IndexRowColumns {
  @inline(__always)
  func real(at column: Int32) -> Double? {
    isReal(at: column) ? double(at: column) : nil
  }
}

extension SQLiteRowCapture.Row: IndexRowColumns {}

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

  /// Decodes a row selected with `rowColumns`.
  func decodeRow(_ statement: SQLiteStatement) throws(TraceError) -> StepRow {
    let step = Int(statement.int64(at: 0))
    try checkID(statement, column: 3, name: "origin", step: step)
    try checkID(statement, column: 4, name: "action", step: step)
    try checkID(statement, column: 5, name: "changed", step: step)
    let mono = statement.int64(at: 1)
    let wallTime: Double
    if statement.isInteger(at: 2) {
      let start = try startWallTime(step: step)
      wallTime = start + Double(mono &+ statement.int64(at: 2)) / 1e9
    } else if statement.isReal(at: 2) {
      wallTime = statement.double(at: 2)
    } else {
      throw TraceError(
        .corruptIndex("wall '\(statement.text(at: 2))' is not a time"), file: path, step: step)
    }
    return StepRow(
      step: step,
      monotonicNanos: UInt64(bitPattern: mono),
      wallTime: wallTime,
      origin: try origin(statement.int64(at: 3), step: step),
      actionPath: try actionPath(statement.int64(at: 4), step: step),
      changedPaths: try pathSet(statement.int64(at: 5), step: step),
      stateHash: UInt64(bitPattern: statement.int64(at: 6)),
      reducerNanos: UInt64(bitPattern: statement.int64(at: 7)))
  }

  private func checkID(_ statement: SQLiteStatement, column: Int32, name: String, step: Int)
    throws(TraceError)
  {
    guard statement.isInteger(at: column) else {
      throw TraceError(
        .corruptIndex("\(name) '\(statement.text(at: column))' is not an id"), file: path,
        step: step)
    }
  }

  private func startWallTime(step: Int) throws(TraceError) -> Double {
    if let start = interned.startWallTime { return start }
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

  private func origin(_ id: Int64, step: Int) throws(TraceError) -> StepOrigin {
    switch id {
    case 0: return .initial
    case 1: return .user
    default:
      if let known = interned.origins[id] { return known }
      if interned.effectIDs[id] == nil { try reloadInterned() }
      guard let text = interned.effectIDs[id] else {
        throw TraceError(.corruptIndex("origin \(id) is not in origins"), file: path, step: step)
      }
      guard let uuid = UUID(uuidString: text) else {
        throw TraceError(
          .corruptIndex("origin \(id) has effect id '\(text)', not a UUID"), file: path,
          step: step)
      }
      interned.origins[id] = .effect(uuid)
      return .effect(uuid)
    }
  }

  private func actionPath(_ id: Int64, step: Int) throws(TraceError) -> String {
    if let known = interned.actionPaths[id] { return known }
    try reloadInterned()
    guard let path = interned.actionPaths[id] else {
      throw TraceError(.corruptIndex("action \(id) is not in actions"), file: path, step: step)
    }
    return path
  }

  private func pathSet(_ id: Int64, step: Int?) throws(TraceError) -> [String] {
    if let known = interned.pathSets[id] { return known }
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
    return paths
  }

  /// Reads the `actions`, `path_sets` and `origins` tables again (they only ever grow).
  func reloadInterned() throws(TraceError) {
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

import Foundation

// What an interactive reader asks while a person moves through a trace: every answer comes
// from the index (or the effects table) by indexed lookups or bounded scans, never by
// holding one row per step in memory.

extension TraceReader {
  /// Every distinct action path of the trace (the `actions` table: a few dozen, whatever the
  /// number of steps), in no particular order. A search over action paths matches these,
  /// then selects steps by them (`StepFilter.actionPaths`).
  ///
  /// ```swift
  /// try reader.actionPaths().sorted()  // ["counter.minus", "counter.plus", "counter.reset"]
  /// ```
  public func actionPaths() throws(TraceError) -> [String] {
    try reloadInterned()
    return Array(Set(interned.actionPaths.values))
  }

  /// How many steps in `filter.from...filter.to` pass the filter.
  ///
  /// ```swift
  /// try reader.count(matching: StepFilter(from: 0, to: 8_191, changedPath: "count"))  // 8_110
  /// ```
  public func count(matching filter: StepFilter) throws(TraceError) -> Int {
    let began = (try? database.execute("BEGIN")) != nil
    defer { if began { try? database.execute("COMMIT") } }
    let conditions = try sqlConditions(filter)
    do {
      let statement = try database.prepare(
        "SELECT COUNT(*) FROM steps WHERE \(conditions.joined(separator: " AND "))")
      defer { statement.reset() }
      try statement.bind(filter.from, at: 1)
      try statement.bind(filter.to, at: 2)
      return try statement.step() ? Int(statement.int64(at: 0)) : 0
    } catch {
      throw queryError(error)
    }
  }

  /// The number of steps per action path in `from...to`.
  ///
  /// ```swift
  /// try reader.actionCounts(from: 1, to: 100)  // ["plus": 66, "minus": 33, "reset": 1]
  /// ```
  public func actionCounts(from: Int, to: Int) throws(TraceError) -> [String: Int] {
    var counts: [String: Int] = [:]
    try querying(step: nil) { () throws in
      let statement = try database.prepare(
        "SELECT action, COUNT(*) FROM steps WHERE step >= ? AND step <= ? GROUP BY action")
      defer { statement.reset() }
      try statement.bind(from, at: 1)
      try statement.bind(to, at: 2)
      while try statement.step() {
        let id = statement.int64(at: 0)
        if interned.actionPaths[id] == nil { try reloadInterned() }
        guard let path = interned.actionPaths[id] else {
          throw TraceError(.corruptIndex("action \(id) is not in actions"), file: self.path)
        }
        counts[path, default: 0] += Int(statement.int64(at: 1))
      }
    }
    return counts
  }

  /// The effects whose reducer step was `step`, in the order they were recorded, with the
  /// steps each one sent.
  ///
  /// Found through the `effects_by_step` index; a trace recorded before it had one is
  /// scanned, at a cost that grows with its number of effects.
  public func effects(startedBy step: Int) throws(TraceError) -> [EffectRecord] {
    try effects(where: "started_by_step = ?", step: step) { statement throws(SQLiteError) in
      try statement.bind(step, at: 1)
    }
  }

  /// The effect with this id, or nil.
  public func effect(id: UUID) throws(TraceError) -> EffectRecord? {
    try effects(where: "id = ?", step: nil) { statement throws(SQLiteError) in
      try statement.bind(id.uuidString, at: 1)
    }.first
  }

  private func effects(
    where condition: String, step: Int?,
    _ bind: (SQLiteStatement) throws(SQLiteError) -> Void
  ) throws(TraceError) -> [EffectRecord] {
    var effects: [EffectRecord] = []
    try querying(step: step) { () throws in
      let rows = try database.prepare(
        "SELECT \(try effectColumns()) FROM effects WHERE \(condition) ORDER BY rowid")
      defer { rows.reset() }
      try bind(rows)
      let sends = try database.prepare(
        "SELECT step FROM effect_sends WHERE effect_id = ? ORDER BY step")
      while try rows.step() {
        sends.reset()
        try sends.bind(rows.text(at: 0), at: 1)
        var sent: [Int] = []
        while try sends.step() { sent.append(Int(sends.int64(at: 0))) }
        effects.append(try decodeEffect(rows, sentSteps: sent))
      }
      sends.reset()
    }
    return effects
  }

  /// Runs a query whose errors are the trace's own or SQLite's, as one `TraceError`.
  private func querying(step: Int?, _ body: () throws -> Void) throws(TraceError) {
    do {
      try body()
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw queryError(error, step: step)
    } catch {
      throw TraceError(.database("\(error)"), file: path, step: step)
    }
  }
}

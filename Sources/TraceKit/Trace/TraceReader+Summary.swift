import Foundation

// The trace as a whole: metadata, counts, effects, gaps and the reducer tree.

extension TraceReader {
  /// A summary of the trace from the `meta` table and indexed lookups; it does not scan steps
  /// or payloads, so it is as fast on a million steps as on ten.
  ///
  /// ```swift
  /// let info = try reader.info()
  /// print(info.formatVersion, info.stepCount, info.isComplete)  // 1 1000 true
  /// ```
  public func info() throws(TraceError) -> TraceInfo {
    // One read transaction: the counters, the last step and the gaps from the same commit,
    // even while a writer appends.
    let began = (try? database.execute("BEGIN")) != nil
    defer { if began { try? database.execute("COMMIT") } }
    let meta = try metaTable()
    func number(_ key: String, in range: ClosedRange<Int>, required: Bool = false)
      throws(TraceError) -> Int
    {
      guard let text = meta[key] else {
        if required { throw TraceError(.corruptMetadata("no '\(key)'"), file: path) }
        return 0
      }
      guard let value = Int(text), range.contains(value) else {
        throw TraceError(
          .corruptMetadata(
            "\(key) is \(Self.shown(text)), not a number from \(range.lowerBound) to "
              + "\(range.upperBound)"),
          file: path)
      }
      return value
    }
    func text(_ key: String) throws(TraceError) -> String {
      guard let value = meta[key] else {
        throw TraceError(.corruptMetadata("no '\(key)'"), file: path)
      }
      return value
    }
    var extra: [String: String] = [:]
    for (key, value) in meta where key.hasPrefix(TraceSchema.Key.extraPrefix) {
      extra[String(key.dropFirst(TraceSchema.Key.extraPrefix.count))] = value
    }
    let counts = 0...Self.maximumCount
    let metadata = TraceMetadata(
      rootReducer: try text(TraceSchema.Key.rootReducer),
      stateType: try text(TraceSchema.Key.stateType),
      actionType: try text(TraceSchema.Key.actionType),
      keyframeInterval: try number(
        TraceSchema.Key.keyframeInterval, in: 1...Self.maximumStep, required: true),
      extra: extra)
    let complete: Bool
    switch meta[TraceSchema.Key.complete] {
    case "1"?: complete = true
    case "0"?, nil: complete = false
    case let other?:
      throw TraceError(
        .corruptMetadata("complete is \(Self.shown(other)), not 0 or 1"), file: path)
    }
    let last = try lastStep()
    let totals: (effects: Int, chunks: Int, keyframes: Int, payload: Int, raw: Int)
    let keys = [
      TraceSchema.Key.effectCount, TraceSchema.Key.chunkCount, TraceSchema.Key.keyframeCount,
      TraceSchema.Key.payloadBytes, TraceSchema.Key.payloadRawBytes,
    ]
    if keys.allSatisfy({ meta[$0] != nil }) {
      // Written when the trace was closed (by version 1: at every commit).
      totals = (
        try number(keys[0], in: counts), try number(keys[1], in: counts),
        try number(keys[2], in: counts), try number(keys[3], in: counts),
        try number(keys[4], in: counts))
    } else {
      // A trace still being written (or whose writer died) keeps no totals: derive them. A
      // chunk row fills a leaf page with the start of its data, so this reads a page per row
      // (a few hundred per million steps); effects are counted by their rowid.
      do {
        totals = (
          Int(try database.scalarInt("SELECT MAX(rowid) FROM effects") ?? 0),
          Int(
            try database.scalarInt("SELECT COUNT(*) FROM chunks WHERE chunk = first_step") ?? 0),
          Int(try database.scalarInt("SELECT COUNT(*) FROM keyframes") ?? 0),
          Int(try database.scalarInt("SELECT SUM(length(data)) FROM chunks") ?? 0),
          Int(try database.scalarInt("SELECT SUM(raw_size) FROM chunks") ?? 0)
        )
      } catch {
        throw queryError(error)
      }
    }
    let firstWall = try edgeRow(last: false)?.wallTime
    let lastWall = try edgeRow(last: true)?.wallTime
    return TraceInfo(
      formatVersion: try number(TraceSchema.Key.formatVersion, in: counts, required: true),
      metadata: metadata,
      stepCount: last,
      effectCount: totals.effects,
      gaps: try checkedGaps(lastStep: last).map {
        TraceGap(afterStep: $0.afterStep, dropped: $0.dropped)
      },
      firstWallTime: firstWall,
      lastWallTime: lastWall,
      fileSize: fileSize(path) + fileSize(path + "-wal"),
      payloadBytes: totals.payload,
      payloadRawBytes: totals.raw,
      chunkCount: totals.chunks,
      keyframeCount: totals.keyframes,
      isComplete: complete,
      isWriterAlive: complete
        ? false : meta[TraceSchema.Key.writerLock] == "flock" ? database.isLockedByWriter : nil)
  }

  private func metaTable() throws(TraceError) -> [String: String] {
    var meta: [String: String] = [:]
    do {
      let statement = try database.prepare("SELECT key, value FROM meta")
      defer { statement.reset() }
      while try statement.step() { meta[statement.text(at: 0)] = statement.text(at: 1) }
    } catch {
      throw queryError(error)
    }
    return meta
  }

  /// The first or the last step's row (nil for a trace without steps).
  private func edgeRow(last: Bool) throws(TraceError) -> StepRow? {
    let statement: SQLiteStatement
    let found: Bool
    do {
      statement = try database.prepare(
        "SELECT \(Self.rowColumns) FROM steps ORDER BY step \(last ? "DESC" : "ASC") LIMIT 1")
      found = try statement.step()
    } catch {
      throw queryError(error)
    }
    defer { statement.reset() }
    return found ? try decodeRow(statement) : nil
  }

  private func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }

  /// Every effect in the order the writer recorded them, with the steps each one sent.
  public func effects() throws(TraceError) -> [EffectRecord] {
    var sends: [String: [Int]] = [:]
    var effects: [EffectRecord] = []
    do {
      let sendRows = try database.prepare(
        "SELECT effect_id, step FROM effect_sends ORDER BY effect_id, step")
      defer { sendRows.reset() }
      let file = path
      while try sendRows.step() {
        let id = sendRows.text(at: 0)
        let step = try Self.step(sendRows, 1, "step") { reason in
          TraceError(.corruptIndex("effect_sends of \(Self.shown(id)): \(reason)"), file: file)
        }
        sends[id, default: []].append(step)
      }
      let rows = try database.prepare(
        "SELECT \(try effectColumns()) FROM effects ORDER BY rowid")
      defer { rows.reset() }
      while try rows.step() {
        effects.append(try decodeEffect(rows, sentSteps: sends[rows.text(at: 0)] ?? []))
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw queryError(error)
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
    return effects
  }

  /// The columns `decodeEffect` reads. Traces written before the effects' kind, parent and
  /// surrounding steps were recorded have no such columns: those read as unknown.
  func effectColumns() throws(SQLiteError) -> String {
    let lifecycle =
      try hasLifecycleColumns()
      ? "kind, parent_id, started_after_step, ended_after_step" : "NULL, NULL, NULL, NULL"
    return """
      id, started_by_step, cancel_id, file, line, start_ns, end_ns, outcome, cancel_reason,
      cancelled_by_step, \(lifecycle)
      """
  }

  /// Whether the `effects` table has the columns of each effect's kind, parent and the steps
  /// around its start and end.
  private func hasLifecycleColumns() throws(SQLiteError) -> Bool {
    if let hasEffectLifecycle { return hasEffectLifecycle }
    let statement = try database.prepare("SELECT name FROM pragma_table_info('effects')")
    defer { statement.reset() }
    var names: Set<String> = []
    while try statement.step() { names.insert(statement.text(at: 0)) }
    let found = names.isSuperset(of: [
      "kind", "parent_id", "started_after_step", "ended_after_step",
    ])
    hasEffectLifecycle = found
    return found
  }

  /// Decodes a row selected with `effectColumns()`.
  func decodeEffect(_ rows: SQLiteStatement, sentSteps: [Int]) throws(TraceError)
    -> EffectRecord
  {
    let file = path
    let idText = rows.text(at: 0)
    guard let id = UUID(uuidString: idText) else {
      throw TraceError(
        .corruptIndex("effect id \(Self.shown(idText)) is not a UUID"), file: path)
    }
    func damaged(_ reason: String) -> TraceError {
      TraceError(.corruptIndex("effect \(idText): \(reason)"), file: file)
    }
    let outcomeText = rows.text(at: 7)
    let outcome: EffectOutcome
    switch outcomeText {
    case "running": outcome = .running
    case "finished": outcome = .finished
    case "unfinished": outcome = .unfinished
    case "cancelled":
      let byStep = try Self.optionalInteger(
        rows, 9, "cancelled_by_step", in: Self.stepRange, damaged)
      outcome = .cancelled(reason: rows.text(at: 8), byStep: byStep.map { Int($0) })
    default:
      throw damaged("unknown outcome \(Self.shown(outcomeText))")
    }
    let nanos = Self.nonNegative
    return EffectRecord(
      id: id,
      startedByStep: try Self.step(rows, 1, "started_by_step", damaged),
      cancelID: rows.optionalText(at: 2),
      file: rows.optionalText(at: 3),
      line: try Self.optionalInteger(rows, 4, "line", in: nanos, damaged).map { Int($0) },
      startNanos: try Self.optionalInteger(rows, 5, "start_ns", in: nanos, damaged)
        .map { UInt64($0) },
      endNanos: try Self.optionalInteger(rows, 6, "end_ns", in: nanos, damaged)
        .map { UInt64($0) },
      outcome: outcome,
      sentSteps: sentSteps,
      kind: rows.optionalText(at: 10),
      parentID: try rows.optionalText(at: 11).map { text throws(TraceError) in
        guard let parent = UUID(uuidString: text) else {
          throw damaged("parent_id \(Self.shown(text)) is not a UUID")
        }
        return parent
      },
      startedAfterStep: try Self.optionalInteger(
        rows, 12, "started_after_step", in: Self.stepRange, damaged
      ).map { Int($0) },
      endedAfterStep: try Self.optionalInteger(
        rows, 13, "ended_after_step", in: Self.stepRange, damaged
      ).map { Int($0) })
  }

  /// The reducer tree, or nil when the writer stored none.
  public func tree() throws(TraceError) -> ReducerTreeNode? {
    let json: String?
    do {
      json = try database.scalarText("SELECT json FROM tree WHERE id = 1")
    } catch {
      throw queryError(error)
    }
    guard let json else { return nil }
    do {
      return try Self.decodeTree(Array(json.utf8))
    } catch {
      throw TraceError(.corruptTree(error.reason), file: path)
    }
  }

  /// Steps the recorder dropped, in order, each checked against the index.
  public func gaps() throws(TraceError) -> [(afterStep: Int, dropped: Int)] {
    let began = (try? database.execute("BEGIN")) != nil
    defer { if began { try? database.execute("COMMIT") } }
    return try checkedGaps(lastStep: try lastStep())
  }
}

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
    let meta = try metaTable()
    func number(_ key: String) throws(TraceError) -> Int {
      guard let text = meta[key] else { return 0 }
      guard let value = Int(text) else {
        throw TraceError(.corruptMetadata("'\(key)' is '\(text)', not a number"), file: path)
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
    let metadata = TraceMetadata(
      rootReducer: try text(TraceSchema.Key.rootReducer),
      stateType: try text(TraceSchema.Key.stateType),
      actionType: try text(TraceSchema.Key.actionType),
      keyframeInterval: try number(TraceSchema.Key.keyframeInterval),
      extra: extra)
    let last = try lastStep()
    let effectCount: Int
    let firstWall: Double?
    let lastWall: Double?
    do {
      // The writer keeps the count in `meta`; COUNT(*) would read the whole table.
      if let counted = meta[TraceSchema.Key.effectCount].flatMap({ Int($0) }) {
        effectCount = counted
      } else {
        effectCount = Int(try database.scalarInt("SELECT COUNT(*) FROM effects") ?? 0)
      }
    } catch {
      throw queryError(error)
    }
    firstWall = try edgeRow(last: false)?.wallTime
    lastWall = try edgeRow(last: true)?.wallTime
    return TraceInfo(
      formatVersion: try number(TraceSchema.Key.formatVersion),
      metadata: metadata,
      stepCount: last,
      effectCount: effectCount,
      gaps: try gaps().map { TraceGap(afterStep: $0.afterStep, dropped: $0.dropped) },
      firstWallTime: firstWall,
      lastWallTime: lastWall,
      fileSize: fileSize(path) + fileSize(path + "-wal"),
      payloadBytes: try number(TraceSchema.Key.payloadBytes),
      payloadRawBytes: try number(TraceSchema.Key.payloadRawBytes),
      chunkCount: try number(TraceSchema.Key.chunkCount),
      keyframeCount: try number(TraceSchema.Key.keyframeCount),
      isComplete: meta[TraceSchema.Key.complete] == "1")
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
      while try sendRows.step() {
        sends[sendRows.text(at: 0), default: []].append(Int(sendRows.int64(at: 1)))
      }
      let rows = try database.prepare(
        "SELECT \(Self.effectColumns) FROM effects ORDER BY rowid")
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

  static let effectColumns = """
    id, started_by_step, cancel_id, file, line, start_ns, end_ns, outcome, cancel_reason,
    cancelled_by_step
    """

  /// Decodes a row selected with `effectColumns`.
  func decodeEffect(_ rows: SQLiteStatement, sentSteps: [Int]) throws(TraceError) -> EffectRecord {
    let idText = rows.text(at: 0)
    guard let id = UUID(uuidString: idText) else {
      throw TraceError(.corruptIndex("effect id '\(idText)' is not a UUID"), file: path)
    }
    let outcomeText = rows.text(at: 7)
    let outcome: EffectOutcome
    switch outcomeText {
    case "running": outcome = .running
    case "finished": outcome = .finished
    case "unfinished": outcome = .unfinished
    case "cancelled":
      outcome = .cancelled(
        reason: rows.text(at: 8), byStep: rows.optionalInt64(at: 9).map { Int($0) })
    default:
      throw TraceError(
        .corruptIndex("effect \(idText) has unknown outcome '\(outcomeText)'"), file: path)
    }
    return EffectRecord(
      id: id,
      startedByStep: Int(rows.int64(at: 1)),
      cancelID: rows.optionalText(at: 2),
      file: rows.optionalText(at: 3),
      line: rows.optionalInt64(at: 4).map { Int($0) },
      startNanos: rows.optionalInt64(at: 5).map { UInt64(bitPattern: $0) },
      endNanos: rows.optionalInt64(at: 6).map { UInt64(bitPattern: $0) },
      outcome: outcome,
      sentSteps: sentSteps)
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
      return try JSONDecoder().decode(ReducerTreeNode.self, from: Data(json.utf8))
    } catch {
      throw TraceError(.corruptTree("\(error)"), file: path)
    }
  }

  /// Steps the recorder dropped, in order.
  public func gaps() throws(TraceError) -> [(afterStep: Int, dropped: Int)] {
    var gaps: [(afterStep: Int, dropped: Int)] = []
    do {
      let statement = try database.prepare(
        "SELECT after_step, dropped FROM gaps ORDER BY after_step")
      defer { statement.reset() }
      while try statement.step() {
        gaps.append((Int(statement.int64(at: 0)), Int(statement.int64(at: 1))))
      }
    } catch {
      throw queryError(error)
    }
    return gaps
  }
}

import Foundation

/// Appends a trace to a new `.rewind` file: steps, keyframes, effects, gaps and the reducer
/// tree, committed in small transactions so a process killed at any moment leaves a readable
/// trace holding every step up to the last commit.
///
/// ```swift
/// let writer = try TraceWriter(
///   path: "session.rewind",
///   metadata: TraceMetadata(rootReducer: "Counter", stateType: "Counter.State",
///                           actionType: "Counter.Action"),
///   initialState: .object([TraceField("count", .int(0))]))
/// try writer.append(record, state: newState)   // step 1
/// try writer.close()                           // marks the trace complete
/// ```
///
/// Steps are buffered as JSON Lines in an open chunk; a chunk is sealed (compressed, stored and
/// committed with its index rows) at 2048 steps or 256 KiB. `flush()` commits everything pending
/// in one transaction, storing the open chunk as it is so far; the next flush rewrites that
/// chunk row with more lines. Index rows and the chunk row they point to are always written in
/// the same transaction.
///
/// A writer belongs to one thread (the recorder's background writer); it is not `Sendable`.
public final class TraceWriter {
  /// Lines per chunk before it is sealed.
  static let defaultChunkStepLimit = 2048
  /// Uncompressed bytes per chunk before it is sealed.
  static let chunkByteLimit = 256 * 1024

  /// LZ4's lowest high-compression level: on step lines it stores about a third less than the
  /// fast mode, at a few hundred MB/s (measured with trace-format-bench; see the format page).
  static let compressionLevel: Int32 = 3

  /// Lines per chunk before it is sealed; tests lower it to make many chunks from few steps.
  var chunkStepLimit = TraceWriter.defaultChunkStepLimit

  public let path: String
  public let metadata: TraceMetadata

  private let database: SQLiteConnection
  private let insertStep: SQLiteStatement
  private let insertAction: SQLiteStatement
  private let insertPathSet: SQLiteStatement
  private let insertOrigin: SQLiteStatement
  private let upsertChunk: SQLiteStatement
  private let insertKeyframe: SQLiteStatement
  private let upsertMeta: SQLiteStatement
  private let insertEffect: SQLiteStatement
  private let insertSend: SQLiteStatement
  private let updateEffectEnd: SQLiteStatement
  private let upsertGap: SQLiteStatement
  private let insertGapIfAbsent: SQLiteStatement

  private var inTransaction = false
  private var isClosed = false
  /// Set when SQLite failed: the file keeps the last commit, and the writer refuses more work.
  private var failure: TraceError?

  /// The number of the last step appended (committed or not).
  public private(set) var lastStep = 0
  private var chunk = OpenChunk()
  private var scratch: [UInt8] = []
  private var lineEncoder = StepLine.Encoder()
  /// Interned index values: each distinct action path, changed-path set and effect origin is
  /// stored once and steps refer to it by id (a step row stays ~35 bytes).
  private var actionIDs: [String: Int] = [:]
  private var pathSetIDs: [[UInt8]: Int] = [:]
  private var originIDs: [StepOrigin: Int] = [:]
  private var lastAction: (path: String, id: Int)?
  /// Step 0's wall time: later steps store their wall time as an offset from it.
  private var startWallTime = 0.0

  // Totals kept in `meta` so a reader's `info` needs no scan.
  private var sealedChunkCount = 0
  private var sealedPayloadBytes = 0
  private var sealedPayloadRawBytes = 0
  private var keyframeCount = 0
  private var effectCount = 0

  /// The chunk being filled: its lines, and what its stored (partial) version holds.
  private struct OpenChunk {
    /// The chunk's first step, also its key in `chunks`.
    var firstStep: Int?
    var lastStep = 0
    var stepCount = 0
    var lines: [UInt8] = []
    /// Lines added since the chunk row was last written.
    var isDirty = false
    var storedBytes = 0
    var storedRawBytes = 0

    init() {
      lines.reserveCapacity(TraceWriter.chunkByteLimit + 4096)
    }
  }

  /// Creates the trace file (it must not exist yet) and commits step 0 — the initial state,
  /// stored as a keyframe.
  public init(
    path: String, metadata: TraceMetadata, initialState: TraceValue,
    wallTime: Double = Date().timeIntervalSince1970
  ) throws(TraceError) {
    self.path = path
    self.metadata = metadata
    guard metadata.keyframeInterval >= 1 else {
      throw TraceError(
        .invalidWrite("keyframe interval must be at least 1, not \(metadata.keyframeInterval)"),
        file: path)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw TraceError(.invalidWrite("a file already exists at this path"), file: path)
    }
    do {
      database = try SQLiteConnection(path: path, mode: .create)
      // Debian's SQLite defaults WAL to synchronous=FULL (an fsync per commit); NORMAL keeps
      // WAL's guarantee that a crash loses at most the last commits, never corrupts the file.
      // Incremental auto-vacuum lets `close()` return the pages that rewriting the open chunk
      // at each flush set free (it must be chosen before the first table exists).
      try database.execute(
        "PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
      database.setBusyTimeout(milliseconds: 5_000)
      try database.execute("BEGIN IMMEDIATE")
      try database.execute(TraceSchema.createSQL)
      insertStep = try database.prepare(
        """
        INSERT INTO steps (step, mono_ns, wall, origin, action, changed, state_hash,
          reducer_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
      insertAction = try database.prepare("INSERT INTO actions (id, path) VALUES (?, ?)")
      insertPathSet = try database.prepare("INSERT INTO path_sets (id, paths) VALUES (?, ?)")
      insertOrigin = try database.prepare(
        "INSERT INTO origins (id, effect_id) VALUES (?, ?)")
      upsertChunk = try database.prepare(
        """
        INSERT OR REPLACE INTO chunks (first_step, last_step, step_count, raw_size, data)
        VALUES (?, ?, ?, ?, ?)
        """)
      insertKeyframe = try database.prepare(
        "INSERT INTO keyframes (step, state_hash, raw_size, data) VALUES (?, ?, ?, ?)")
      upsertMeta = try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
      insertEffect = try database.prepare(
        """
        INSERT INTO effects (id, started_by_step, cancel_id, file, line, start_ns, end_ns,
          outcome, cancel_reason, cancelled_by_step) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      insertSend = try database.prepare(
        "INSERT OR IGNORE INTO effect_sends (effect_id, step) VALUES (?, ?)")
      updateEffectEnd = try database.prepare(
        """
        UPDATE effects SET end_ns = ?, outcome = ?, cancel_reason = ?, cancelled_by_step = ?
        WHERE id = ?
        """)
      upsertGap = try database.prepare(
        "INSERT OR REPLACE INTO gaps (after_step, dropped) VALUES (?, ?)")
      insertGapIfAbsent = try database.prepare(
        "INSERT OR IGNORE INTO gaps (after_step, dropped) VALUES (?, ?)")
      inTransaction = true
    } catch {
      throw TraceError(.database(error.description), file: path)
    }
    var meta: [(String, String)] = [
      (TraceSchema.Key.formatVersion, String(TraceSchema.formatVersion)),
      (TraceSchema.Key.complete, "0"),
      (TraceSchema.Key.writer, "Rewind TraceKit"),
      (TraceSchema.Key.createdAt, String(wallTime)),
      (TraceSchema.Key.rootReducer, metadata.rootReducer),
      (TraceSchema.Key.stateType, metadata.stateType),
      (TraceSchema.Key.actionType, metadata.actionType),
      (TraceSchema.Key.keyframeInterval, String(metadata.keyframeInterval)),
    ]
    for (key, value) in metadata.extra.sorted(by: { $0.key < $1.key }) {
      meta.append((TraceSchema.Key.extraPrefix + key, value))
    }
    try sql { () throws(SQLiteError) in
      for (key, value) in meta { try setMeta(key, value) }
    }
    startWallTime = wallTime
    let initial = StepRecord(
      step: 0, monotonicNanos: 0, wallTime: wallTime, origin: .initial, actionPath: "",
      action: .null, changes: [], changedPaths: [], stateHash: initialState.stableHash,
      reducerNanos: 0)
    try write(initial, state: initialState, keyframe: true)
    try flush()
  }

  deinit {
    // A writer dropped without `close()` keeps what it had: commit it, as a crash after the
    // last flush would not. Errors have nowhere to go here; the file keeps the last commit.
    if !isClosed && failure == nil { try? flush() }
  }

  // MARK: Steps

  /// Appends one step. `state` is the state after the step; it is stored only when the step
  /// is a keyframe (a multiple of the keyframe interval, or the first step after a gap).
  ///
  /// Step numbers must increase; a jump over numbers records a gap (dropped steps are never
  /// silent) unless `appendGap` already did.
  public func append(_ record: StepRecord, state: @autoclosure () -> TraceValue)
    throws(TraceError)
  {
    try checkWritable(step: record.step)
    guard record.step > lastStep else {
      throw TraceError(
        .invalidWrite("steps must increase: step \(record.step) follows step \(lastStep)"),
        file: path, step: record.step)
    }
    guard !record.wallTime.isNaN else {
      throw TraceError(
        .invalidWrite("the wall time is not a number"), file: path, step: record.step)
    }
    let jumped = record.step > lastStep + 1
    if jumped {
      let dropped = record.step - lastStep - 1
      let after = lastStep
      try sql { () throws(SQLiteError) in
        try insertGapIfAbsent.bind(after, at: 1)
        try insertGapIfAbsent.bind(dropped, at: 2)
        try insertGapIfAbsent.run()
      }
    }
    let keyframe = jumped || record.step % metadata.keyframeInterval == 0
    try write(record, state: keyframe ? state() : nil, keyframe: keyframe)
    if chunk.stepCount >= chunkStepLimit || chunk.lines.count >= Self.chunkByteLimit {
      try sealChunk()
      try commit()
    }
  }

  /// Records that `dropped` steps after `afterStep` were not recorded.
  public func appendGap(afterStep: Int, dropped: Int) throws(TraceError) {
    try checkWritable(step: afterStep)
    guard afterStep >= 0, dropped > 0 else {
      throw TraceError(
        .invalidWrite("a gap needs afterStep >= 0 and dropped > 0, not \(afterStep), \(dropped)"),
        file: path, step: afterStep)
    }
    try sql { () throws(SQLiteError) in
      try upsertGap.bind(afterStep, at: 1)
      try upsertGap.bind(dropped, at: 2)
      try upsertGap.run()
    }
  }

  private func write(_ record: StepRecord, state: TraceValue?, keyframe: Bool)
    throws(TraceError)
  {
    let wall = Self.wallColumns(
      record.wallTime, monotonicNanos: record.monotonicNanos, start: startWallTime,
      isFirst: record.step == 0)
    let action = try actionID(record.actionPath)
    let changed = try pathSetID(record.changedPaths)
    let origin = try originID(record.origin)
    let keyframeData: (frame: [UInt8], rawSize: Int, hash: UInt64)?
    if keyframe, let state {
      var json: [UInt8] = []
      json.reserveCapacity(1024)
      state.writeJSON(into: &json)
      json.append(UInt8(ascii: "\n"))
      guard json.count <= TraceSchema.payloadLimit else {
        throw TraceError(
          .payloadTooLarge(bytes: json.count, limit: TraceSchema.payloadLimit),
          file: path, step: record.step)
      }
      keyframeData = (try compress(json, step: record.step), json.count, record.stateHash)
    } else {
      keyframeData = nil
    }
    // The line joins the chunk only once nothing above can refuse the step.
    if chunk.firstStep == nil { chunk.firstStep = record.step }
    chunk.lastStep = record.step
    chunk.stepCount += 1
    chunk.isDirty = true
    StepLine.write(record, into: &chunk.lines, encoder: &lineEncoder)
    try sql { () throws(SQLiteError) in
      try insertStep.bind(record.step, at: 1)
      try insertStep.bind(bitPattern: record.monotonicNanos, at: 2)
      // An integer is the offset from step 0's wall time plus mono_ns, a real the time itself.
      if let time = wall.time {
        try insertStep.bind(time, at: 3)
      } else {
        try insertStep.bind(wall.offset, at: 3)
      }
      try insertStep.bind(origin, at: 4)
      try insertStep.bind(action, at: 5)
      try insertStep.bind(changed, at: 6)
      try insertStep.bind(bitPattern: record.stateHash, at: 7)
      try insertStep.bind(bitPattern: record.reducerNanos, at: 8)
      try insertStep.run()
      if let keyframeData {
        try insertKeyframe.bind(record.step, at: 1)
        try insertKeyframe.bind(bitPattern: keyframeData.hash, at: 2)
        try insertKeyframe.bind(keyframeData.rawSize, at: 3)
        try insertKeyframe.bind(blob: keyframeData.frame, at: 4)
        try insertKeyframe.run()
      }
    }
    if keyframeData != nil { keyframeCount += 1 }
    lastStep = record.step
  }

  // MARK: Interning

  /// How a wall time is stored: as the offset in nanoseconds from `start + mono_ns` when that
  /// gives the same `Double` back (the usual case: both clocks move together), else as is.
  /// Readers and the `step_index` view compute `start + Double(mono_ns + offset) / 1e9`, with
  /// `start` the (real) wall time of step 0.
  static func wallColumns(
    _ wallTime: Double, monotonicNanos: UInt64, start: Double, isFirst: Bool
  ) -> (offset: Int64, time: Double?) {
    guard !isFirst else { return (0, wallTime) }
    let mono = Int64(bitPattern: monotonicNanos)
    let elapsed = ((wallTime - start) * 1e9).rounded()
    guard elapsed.isFinite, abs(elapsed) < 9e18 else { return (0, wallTime) }
    let (offset, overflow) = Int64(elapsed).subtractingReportingOverflow(mono)
    guard !overflow else { return (0, wallTime) }
    func gives(_ candidate: Int64) -> Bool {
      let (total, over) = mono.addingReportingOverflow(candidate)
      return !over && start + Double(total) / 1e9 == wallTime
    }
    // The rounding to whole nanoseconds can land one off the value that reproduces the time.
    if gives(offset) { return (offset, nil) }
    if gives(offset &- 1) { return (offset &- 1, nil) }
    if gives(offset &+ 1) { return (offset &+ 1, nil) }
    return (0, wallTime)
  }

  private func actionID(_ actionPath: String) throws(TraceError) -> Int {
    if let lastAction, lastAction.path == actionPath { return lastAction.id }
    let id: Int
    if let known = actionIDs[actionPath] {
      id = known
    } else {
      id = actionIDs.count + 1
      try sql { () throws(SQLiteError) in
        try insertAction.bind(id, at: 1)
        try insertAction.bind(actionPath, at: 2)
        try insertAction.run()
      }
      actionIDs[actionPath] = id
    }
    lastAction = (actionPath, id)
    return id
  }

  private func pathSetID(_ paths: [String]) throws(TraceError) -> Int {
    scratch.removeAll(keepingCapacity: true)
    lineEncoder.writeStringArray(paths, into: &scratch)
    if let known = pathSetIDs[scratch] { return known }
    let id = pathSetIDs.count + 1
    try sql { () throws(SQLiteError) in
      try insertPathSet.bind(id, at: 1)
      try insertPathSet.bind(utf8: scratch, at: 2)
      try insertPathSet.run()
    }
    pathSetIDs[scratch] = id
    return id
  }

  /// The code of `StepOrigin.storedCode`, or for an effect (and an inspector's step) the id
  /// of its `origins` row, which holds the effect's UUID (the step's `jump:<k>`,
  /// `continue:<k>`).
  private func originID(_ origin: StepOrigin) throws(TraceError) -> Int {
    if let code = origin.storedCode { return code }
    if let known = originIDs[origin] { return known }
    let text: String
    if case .effect(let uuid) = origin {
      text = uuid.uuidString
    } else {
      text = origin.storageText
    }
    let id = originIDs.count + 2
    try sql { () throws(SQLiteError) in
      try insertOrigin.bind(id, at: 1)
      try insertOrigin.bind(text, at: 2)
      try insertOrigin.run()
    }
    originIDs[origin] = id
    return id
  }

  // MARK: Effects

  /// Records an effect the store started (with whatever of its ending is already known).
  public func effectStarted(_ record: EffectRecord) throws(TraceError) {
    try checkWritable(step: record.startedByStep)
    let id = record.id.uuidString
    try sql { () throws(SQLiteError) in
      try insertEffect.bind(id, at: 1)
      try insertEffect.bind(record.startedByStep, at: 2)
      try insertEffect.bind(record.cancelID, at: 3)
      try insertEffect.bind(record.file, at: 4)
      try insertEffect.bind(record.line.map(Int64.init), at: 5)
      try insertEffect.bind(record.startNanos.map { Int64(bitPattern: $0) }, at: 6)
      try insertEffect.bind(record.endNanos.map { Int64(bitPattern: $0) }, at: 7)
      try bindOutcome(record.outcome, statement: insertEffect, at: 8)
      try insertEffect.run()
      for step in record.sentSteps {
        try insertSend.bind(id, at: 1)
        try insertSend.bind(step, at: 2)
        try insertSend.run()
      }
    }
    effectCount += 1
  }

  /// Records that the effect sent the action reduced as `step`.
  public func effectSent(id: UUID, step: Int) throws(TraceError) {
    try checkWritable(step: step)
    try sql { () throws(SQLiteError) in
      try insertSend.bind(id.uuidString, at: 1)
      try insertSend.bind(step, at: 2)
      try insertSend.run()
    }
  }

  /// Records how an effect ended.
  public func effectEnded(id: UUID, endNanos: UInt64, outcome: EffectOutcome)
    throws(TraceError)
  {
    try checkWritable(step: nil)
    var changed = 0
    try sql { () throws(SQLiteError) in
      try updateEffectEnd.bind(bitPattern: endNanos, at: 1)
      try bindOutcome(outcome, statement: updateEffectEnd, at: 2)
      try updateEffectEnd.bind(id.uuidString, at: 5)
      try updateEffectEnd.run()
      changed = database.changes
    }
    guard changed == 1 else {
      throw TraceError(.invalidWrite("effect \(id.uuidString) ended but never started"),
                       file: path)
    }
  }

  private func bindOutcome(_ outcome: EffectOutcome, statement: SQLiteStatement, at index: Int32)
    throws(SQLiteError)
  {
    try statement.bind(outcome.storageText, at: index)
    if case .cancelled(let reason, let byStep) = outcome {
      try statement.bind(reason, at: index + 1)
      try statement.bind(byStep.map(Int64.init), at: index + 2)
    } else {
      try statement.bindNull(at: index + 1)
      try statement.bindNull(at: index + 2)
    }
  }

  // MARK: Tree

  /// Stores the reducer tree (replacing an earlier one).
  public func writeTree(_ root: ReducerTreeNode) throws(TraceError) {
    try checkWritable(step: nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json: String
    do {
      json = String(decoding: try encoder.encode(root), as: UTF8.self)
    } catch {
      throw TraceError(.invalidWrite("the reducer tree cannot be encoded: \(error)"), file: path)
    }
    try sql { () throws(SQLiteError) in
      let statement = try database.prepare(
        "INSERT OR REPLACE INTO tree (id, json) VALUES (1, ?)")
      try statement.bind(json, at: 1)
      try statement.run()
    }
  }

  // MARK: Commits

  /// Commits everything pending in one transaction. The open chunk is stored as it is so far,
  /// so a crash after `flush()` loses nothing written before it.
  public func flush() throws(TraceError) {
    try checkWritable(step: nil)
    if chunk.isDirty { try storeChunk() }
    try commit()
  }

  /// Flushes, marks effects still running as `unfinished`, marks the trace complete and
  /// checkpoints the write-ahead log into the file. The writer accepts nothing afterwards.
  public func close() throws(TraceError) {
    try checkWritable(step: nil)
    if chunk.isDirty { try storeChunk() }
    try sql { () throws(SQLiteError) in
      try database.execute("UPDATE effects SET outcome = 'unfinished' WHERE outcome = 'running'")
      try setMeta(TraceSchema.Key.complete, "1")
    }
    try commit()
    isClosed = true
    // The pages a rewritten partial chunk left free go back to the file system; the trace is
    // complete either way, so a failure here costs only space.
    try? database.execute("PRAGMA incremental_vacuum")
    // Folds the log into the main file and leaves WAL mode, so the closed trace is one plain
    // file that a reader can open where it cannot create `-wal`/`-shm` files (a read-only
    // directory, a bug report's attachment). A reader still attached keeps WAL mode in place:
    // leaving it needs the file to ourselves, and waiting for that is not worth it.
    try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    database.setBusyTimeout(milliseconds: 0)
    try? database.execute("PRAGMA journal_mode = DELETE")
    database.close()
  }

  private func sealChunk() throws(TraceError) {
    try storeChunk()
    sealedChunkCount += 1
    sealedPayloadBytes += chunk.storedBytes
    sealedPayloadRawBytes += chunk.storedRawBytes
    chunk = OpenChunk()
  }

  private func storeChunk() throws(TraceError) {
    guard let firstStep = chunk.firstStep else { return }
    let frame = try compress(chunk.lines, step: nil)
    let rawSize = chunk.lines.count
    try sql { () throws(SQLiteError) in
      try upsertChunk.bind(firstStep, at: 1)
      try upsertChunk.bind(chunk.lastStep, at: 2)
      try upsertChunk.bind(chunk.stepCount, at: 3)
      try upsertChunk.bind(rawSize, at: 4)
      try upsertChunk.bind(blob: frame, at: 5)
      try upsertChunk.run()
    }
    chunk.storedBytes = frame.count
    chunk.storedRawBytes = rawSize
    chunk.isDirty = false
  }

  private func commit() throws(TraceError) {
    guard inTransaction else { return }
    let open = chunk.firstStep == nil ? 0 : 1
    try sql { () throws(SQLiteError) in
      try setMeta(TraceSchema.Key.lastStep, String(lastStep))
      try setMeta(TraceSchema.Key.chunkCount, String(sealedChunkCount + open))
      try setMeta(TraceSchema.Key.keyframeCount, String(keyframeCount))
      try setMeta(TraceSchema.Key.effectCount, String(effectCount))
      try setMeta(TraceSchema.Key.payloadBytes, String(sealedPayloadBytes + chunk.storedBytes))
      try setMeta(
        TraceSchema.Key.payloadRawBytes, String(sealedPayloadRawBytes + chunk.storedRawBytes))
      try database.execute("COMMIT")
    }
    inTransaction = false
  }

  // MARK: Plumbing

  private func setMeta(_ key: String, _ value: String) throws(SQLiteError) {
    try upsertMeta.bind(key, at: 1)
    try upsertMeta.bind(value, at: 2)
    try upsertMeta.run()
  }

  private func checkWritable(step: Int?) throws(TraceError) {
    if let failure { throw failure }
    if isClosed {
      throw TraceError(.invalidWrite("the writer is closed"), file: path, step: step)
    }
  }

  /// Runs SQLite work inside the current transaction, opening one if needed. A SQLite failure
  /// rolls back to the last commit and disables the writer.
  private func sql(_ body: () throws(SQLiteError) -> Void) throws(TraceError) {
    do {
      if !inTransaction {
        try database.execute("BEGIN IMMEDIATE")
        inTransaction = true
      }
      try body()
    } catch {
      if inTransaction { try? database.execute("ROLLBACK") }
      inTransaction = false
      let traceError = TraceError(.database(error.description), file: path)
      failure = traceError
      throw traceError
    }
  }

  private func compress(_ bytes: [UInt8], step: Int?) throws(TraceError) -> [UInt8] {
    do {
      return try LZ4Frame.compress(bytes, level: Self.compressionLevel)
    } catch {
      throw TraceError(.database(error.description), file: path, step: step)
    }
  }
}

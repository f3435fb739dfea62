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
/// Steps are buffered as JSON Lines in an open chunk: one LZ4 frame of at most 2048 steps or
/// 256 KiB, written in parts. `flush()` commits everything pending in one transaction: the
/// lines since the last flush become the frame's next blocks, stored as one new row; a sealed
/// chunk's last row carries the frame's end mark. Nothing stored is ever rewritten or
/// compressed again, so what a flush writes is what it adds. Index rows and the chunk rows
/// they point to are always written in the same transaction.
///
/// The file is created owner-only (0600, as are its `-wal` and `-shm`). The writer holds a
/// lock on it for its lifetime (released by the kernel however the process ends), which is how
/// a reader tells a trace being written from one whose writer is gone. Each commit checks that
/// the file is still at its path: a removed or replaced file is an error, not a silent loss.
///
/// A writer belongs to one thread (the recorder's background writer); it is not `Sendable`.
public final class TraceWriter {
  /// Lines per chunk before it is sealed.
  static let defaultChunkStepLimit = 2048
  /// Uncompressed bytes per chunk before it is sealed.
  static let chunkByteLimit = 256 * 1024

  /// Pages of write-ahead log after which a commit checkpoints it (SQLite's default is 1000).
  static let logPages = 16

  /// Keyframes use LZ4's fast mode: a keyframe is the whole state (a megabyte for 10,000
  /// rows), written every `keyframeInterval` steps; high compression of it took most of a
  /// large state's recording time (measured: 35 million instructions a keyframe of 10,000
  /// todos), and keyframes are a small part of a trace.
  static let keyframeCompressionLevel: Int32 = 0

  /// Lines per chunk before it is sealed; tests lower it to make many chunks from few steps.
  var chunkStepLimit = TraceWriter.defaultChunkStepLimit

  public let path: String
  public let metadata: TraceMetadata

  private let database: SQLiteConnection
  private let insertStep: SQLiteStatement
  /// `insertStep` for `stepRowsPerInsert` rows at once, compiled when a commit first has that
  /// many rows: compiling it costs about a million instructions, which a slow app's recording
  /// (a few steps a commit) never needs.
  private var insertSteps: SQLiteStatement?
  private let insertAction: SQLiteStatement
  private let insertPathSet: SQLiteStatement
  private let insertOrigin: SQLiteStatement
  private let insertChunk: SQLiteStatement
  private let updateChunkEnd: SQLiteStatement
  private let insertKeyframe: SQLiteStatement
  private let upsertMeta: SQLiteStatement
  private let insertEffect: SQLiteStatement
  /// `insertEffect` for `effectRowsPerInsert` rows at once, compiled as `insertSteps` is.
  private var insertEffects: SQLiteStatement?
  private let insertSend: SQLiteStatement
  private let updateEffectEnd: SQLiteStatement
  private let upsertGap: SQLiteStatement
  private let insertGapIfAbsent: SQLiteStatement

  private var inTransaction = false
  private var hasWriterLock = false
  private var isClosed = false
  /// Set when SQLite failed: the file keeps the last commit, and the writer refuses more work.
  private var failure: TraceError?

  /// The number of the last step appended (committed or not). Read and set at every step by
  /// the writer's one thread: no dynamic exclusivity checks (two a step, about 150
  /// instructions).
  @exclusivity(unchecked) public private(set) var lastStep = 0
  /// The number of the last step committed to the file (-1 before step 0 is, and once the
  /// file was removed).
  public private(set) var committedStep = -1
  // One thread owns a writer, and no call re-enters these while it changes them: the dynamic
  // exclusivity checks of a class's stored properties cost four a step (~700 instructions).
  @exclusivity(unchecked) private var chunk = OpenChunk()
  private let stream: LZ4FrameStream
  @exclusivity(unchecked) private var scratch: [UInt8] = []
  @exclusivity(unchecked) private var lineEncoder = StepLine.Encoder()
  /// Interned index values: each distinct action path, changed-path set and effect origin is
  /// stored once and steps refer to it by id (a step row stays ~30 bytes).
  /// Action paths hashed as they are; path sets by their paths' bytes (`StringListKey`), not
  /// their JSON: the JSON of a list of strings tells lists apart exactly as its bytes do, and
  /// hashing it went byte by byte (~1,000 instructions a step on a composed app).
  @exclusivity(unchecked) private var actionIDs = RecentIDs<String>()
  /// The ids `actionIDs` gave, by the paths' bytes (`StringBytesKey`): looked up when the path
  /// is neither of the last two by their bits (`recentActions`), before `actionIDs`, as most
  /// steps' action on a composed app is neither of them.
  @exclusivity(unchecked) private var actionIDsByBytes: [StringBytesKey: Int] = [:]
  @exclusivity(unchecked) private var pathSetIDs = RecentIDs<StringListKey>()
  /// The ids `pathSetIDs` gave to sets met more than once, by the strings' bits
  /// (`StringListBitsKey`): looked up first, as a step's changed paths are the line encoder's
  /// kept texts. Bounded (a recording of ever-new paths makes new strings each step).
  @exclusivity(unchecked) private var pathSetIDsByBits: [StringListBitsKey: Int] = [:]
  private static let pathSetBitsLimit = 4_096
  /// The last step's changed paths and their texts (`changedPathTexts`), and the id of the
  /// last set of texts (`pathSetID`): a step that changes the same paths as the step before
  /// it (the same arrays of components, which the encoder keeps from step to step) gets the
  /// same texts and id by their bits, with no look-up of each path, no new array, no hash.
  /// A new set of those texts copies its JSON from the paths' cached texts
  /// (`StepLine.Encoder.writeChangedPathSet`).
  @exclusivity(unchecked) private var lastChangedPaths: (paths: [TracePath], texts: [String]) =
    ([], [])
  @exclusivity(unchecked) private var lastPathSet: (paths: [String], id: Int)?
  /// The sets of changed paths named lately, with their texts and ids: a step that changes a
  /// set met before, not the last step's (a composed app turns between a few), gets its texts
  /// and id by the paths' bits too. `lastPathSetSlot` is the slot of the last set named.
  @exclusivity(unchecked) private var recentPathSets = RecentPathSets()
  @exclusivity(unchecked) private var lastPathSetSlot: Int?
  /// The last two action paths `actionID` gave an id, found by their bits before their bytes
  /// are hashed: a counter's steps alternate between two actions.
  @exclusivity(unchecked) private var recentActions = LastTwo(empty: 0)
  @exclusivity(unchecked) private var originIDs: [StepOrigin: Int] = [:]
  /// Step 0's wall time: later steps store their wall time as an offset from it.
  private var startWallTime = 0.0

  // Totals `close()` stores in `meta`, so `info` on a closed trace scans nothing (a chunk row
  // fills a leaf page with the start of its data: a scan of `chunks` reads the payload).
  private var chunkCount = 0
  private var keyframeCount = 0
  private var effectCount = 0
  /// The `steps` rows appended since the last commit, not inserted yet (see
  /// `insertPendingSteps`).
  @exclusivity(unchecked) private var pendingSteps: [StepColumns] = []
  /// The effects started since the last commit, not inserted yet (see `insertPendingEffects`),
  /// and the position of each id among them.
  @exclusivity(unchecked) private var pendingEffects: [EffectRecord] = []
  @exclusivity(unchecked) private var pendingEffectPositions: [EffectKey: Int] = [:]
  private var payloadBytes = 0
  private var payloadRawBytes = 0
  /// The Swift type table set since the last commit, stored by the commit: a recorder hands a
  /// new table each time it grows (about ten times in a recording's first steps, each a JSON
  /// text of about 150,000 instructions), and a reader sees only the last one a commit made.
  private var pendingSwiftTypes: SwiftTypeTable?

  /// Rows of `steps` one `INSERT` stores: a statement's run costs SQLite about 2,500
  /// instructions besides its rows (a cursor allocated and freed, the statement's start and
  /// end), as much as a row again.
  static let stepRowsPerInsert = 32
  /// Rows of `effects` one `INSERT` stores, for the same reason.
  static let effectRowsPerInsert = 16

  // The row inserts are `OR FAIL`, not the default `OR ABORT`: a statement that writes several
  // rows (or a row and its indexes) and may abort makes SQLite open a statement savepoint and
  // copy each page it changes into a statement journal first, to undo the statement alone.
  // The writer never keeps a transaction whose statement failed (`sql` rolls it back whole),
  // so that copy bought nothing; the rows and the file's bytes are the same.

  static func insertStepsSQL(rows: Int) -> String {
    """
    INSERT OR FAIL INTO steps (step, mono_ns, wall, origin, action, changed, state_hash,
      reducer_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    """ + String(repeating: ", (?, ?, ?, ?, ?, ?, ?, ?)", count: rows - 1)
  }

  static func insertEffectsSQL(rows: Int) -> String {
    let values = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    return """
      INSERT OR FAIL INTO effects (id, started_by_step, cancel_id, file, line, start_ns, end_ns,
        outcome, cancel_reason, cancelled_by_step, kind, parent_id, started_after_step,
        ended_after_step) VALUES \(values)
      """ + String(repeating: ", " + values, count: rows - 1)
  }

  /// An effect's id as a dictionary key hashed from its two words: `UUID`'s own hash runs
  /// its 16 bytes through SipHash (about 450 instructions a look-up, two an effect).
  private struct EffectKey: Hashable {
    let id: UUID
    private let hash: UInt64

    init(_ id: UUID) {
      self.id = id
      var mixer = ByteHash.Mixer()
      withUnsafeBytes(of: id.uuid) { bytes in
        mixer.mix(bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        mixer.mix(bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      }
      hash = mixer.finish()
    }

    static func == (lhs: EffectKey, rhs: EffectKey) -> Bool { lhs.id == rhs.id }

    func hash(into hasher: inout Hasher) {
      hasher.combine(hash)
    }

    /// The hash as it is (already mixed), with the table's seed: no `Hasher` round.
    func _rawHashValue(seed: Int) -> Int {
      Int(truncatingIfNeeded: hash) ^ seed
    }
  }

  /// A `steps` row: the columns in their order.
  private struct StepColumns {
    var step: Int
    var monotonicNanos: UInt64
    /// The time itself, or nil for the offset (`wallColumns`).
    var wallTime: Double?
    var wallOffset: Int64
    var origin: Int
    var action: Int
    var changed: Int
    var stateHash: UInt64
    var reducerNanos: UInt64
  }

  /// The chunk being filled: how much it holds, and the lines not stored yet.
  private struct OpenChunk {
    /// The chunk's first step, which names it (`chunks.chunk` of each of its rows).
    var firstStep: Int?
    var stepCount = 0
    var rawBytes = 0
    /// Lines appended since the last stored part, from step `pendingFirstStep` on.
    var pending: [UInt8] = []
    var pendingFirstStep: Int?
    var pendingCount = 0
    var lastStep = 0
    /// The last stored part (its first step and bytes): `close()` appends the frame's end
    /// mark to it when no lines came after it.
    var lastPart: (firstStep: Int, data: [UInt8])?
  }

  /// Creates the trace file (it must not exist yet) and commits step 0 — the initial state,
  /// stored as a keyframe.
  public convenience init(
    path: String, metadata: TraceMetadata, initialState: TraceValue,
    wallTime: Double = Date().timeIntervalSince1970
  ) throws(TraceError) {
    var json: [UInt8] = []
    initialState.writeJSON(into: &json)
    try self.init(
      path: path, metadata: metadata, initialStateJSON: json,
      initialStateHash: initialState.stableHash, wallTime: wallTime)
  }

  /// `init(path:metadata:initialState:wallTime:)` for a writer that has the initial state's
  /// JSON (`TraceValue.writeJSON`'s bytes) and `stableHash` from cached parts: a recorder's
  /// incremental encoder has both without building, hashing and writing the whole tree again
  /// (for a list of 10,000 todos, 38 M of the 173 M instructions of a recording's start).
  package init(
    path: String, metadata: TraceMetadata, initialStateJSON: consuming [UInt8],
    initialStateHash: UInt64, wallTime: Double
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
      stream = try LZ4FrameStream()
    } catch {
      throw TraceError(.invalidWrite(error.description), file: path)
    }
    do {
      database = try SQLiteConnection(path: path, mode: .createNew)
      // Taken before the first commit, so no reader can see the trace without its writer.
      hasWriterLock = database.lockAsWriter()
      // No fsync while recording, and a log of a few pages that checkpoints often and is
      // reused from its start: what a commit writes stays in the page cache, and a page
      // rewritten by the next commits (the last page of `steps`, of `chunks`) reaches the disk
      // once per writeback (Linux: within 30 s), not once per commit. With fsyncs (NORMAL or
      // FULL) every commit cost whole new pages of log, 15-45x the trace's size for a slow
      // app (Benchmarks/README, trace.write-amplification.slow-app). `synchronous` is set
      // first, so entering WAL mode (a rollback-journal commit of the header) syncs nothing
      // either. A killed process loses nothing committed: the kernel keeps what it was handed.
      // Only a power loss or an OS crash while recording can damage the trace; `close()`
      // syncs, so a closed trace is durable.
      try database.execute(
        "PRAGMA synchronous = OFF; PRAGMA journal_mode = WAL; "
          + "PRAGMA wal_autocheckpoint = \(Self.logPages)")
      database.setBusyTimeout(milliseconds: 5_000)
      try database.execute("BEGIN IMMEDIATE")
      try database.execute(TraceSchema.createSQL)
      insertStep = try database.prepare(Self.insertStepsSQL(rows: 1))
      insertAction = try database.prepare("INSERT INTO actions (id, path) VALUES (?, ?)")
      insertPathSet = try database.prepare("INSERT INTO path_sets (id, paths) VALUES (?, ?)")
      insertOrigin = try database.prepare(
        "INSERT INTO origins (id, effect_id) VALUES (?, ?)")
      insertChunk = try database.prepare(
        """
        INSERT INTO chunks (first_step, chunk, last_step, step_count, raw_size, data)
        VALUES (?, ?, ?, ?, ?, ?)
        """)
      updateChunkEnd = try database.prepare("UPDATE chunks SET data = ? WHERE first_step = ?")
      insertKeyframe = try database.prepare(
        "INSERT INTO keyframes (step, state_hash, raw_size, data) VALUES (?, ?, ?, ?)")
      upsertMeta = try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
      insertEffect = try database.prepare(Self.insertEffectsSQL(rows: 1))
      insertSend = try database.prepare(
        "INSERT OR IGNORE INTO effect_sends (effect_id, step) VALUES (?, ?)")
      updateEffectEnd = try database.prepare(
        """
        UPDATE effects SET end_ns = ?, outcome = ?, cancel_reason = ?, cancelled_by_step = ?,
          ended_after_step = ? WHERE id = ?
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
    if hasWriterLock { meta.append((TraceSchema.Key.writerLock, "flock")) }
    for (key, value) in metadata.extra.sorted(by: { $0.key < $1.key }) {
      meta.append((TraceSchema.Key.extraPrefix + key, value))
    }
    try sql { () throws(SQLiteError) in
      for (key, value) in meta { try setMeta(key, value) }
    }
    startWallTime = wallTime
    let initial = StepRecord(
      step: 0, monotonicNanos: 0, wallTime: wallTime, origin: .initial, actionPath: "",
      action: .null, changes: [], changedPaths: [], stateHash: initialStateHash,
      reducerNanos: 0)
    // Moved, not copied: the newline is appended in place when the caller handed its only
    // reference, with room for it.
    try write(initial, stateJSON: consume initialStateJSON, keyframe: true)
    try flush()
  }

  deinit {
    // A writer dropped without `close()` keeps what it had: commit it, as a crash after the
    // last flush would not, and leave WAL mode (closing the last connection folds the log
    // into the file), so the file stands alone and a reader does not look for a log. It is
    // not marked complete. Errors have nowhere to go here; the file keeps the last commit.
    if !isClosed && failure == nil {
      try? flush()
      database.setBusyTimeout(milliseconds: 0)
      try? database.execute("PRAGMA journal_mode = DELETE")
    }
    database.close()
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
    try append(record, stateJSON: { () -> [UInt8] in
      var json: [UInt8] = []
      json.reserveCapacity(1024)
      state().writeJSON(into: &json)
      return json
    }())
  }

  /// `append(_:state:)` for a writer that has the state's JSON (`TraceValue.writeJSON`'s
  /// bytes) from cached parts: asked for at keyframes only.
  package func append(_ record: StepRecord, stateJSON: @autoclosure () -> [UInt8])
    throws(TraceError)
  {
    let keyframe = try prepareAppend(record)
    try completeAppend(record, stateJSON: keyframe ? stateJSON() : nil, keyframe: keyframe)
  }

  /// `append(_:stateJSON:)` for a writer whose state was encoded on another thread: the
  /// state's JSON comes with the step when `isKeyframe` says the step is a keyframe.
  package func append(_ record: StepRecord, keyframeJSON: consuming [UInt8]?)
    throws(TraceError)
  {
    let keyframe = try prepareAppend(record)
    guard !keyframe || keyframeJSON != nil else {
      throw TraceError(
        .invalidWrite("step \(record.step) is a keyframe and came without its state"),
        file: path, step: record.step)
    }
    try completeAppend(record, stateJSON: keyframe ? keyframeJSON : nil, keyframe: keyframe)
  }

  /// The `changed_paths` texts of a step's changed paths (`StepRecord.changedPaths`): each
  /// path's `description`, in order, each text once. The texts come from the cache the step
  /// lines write paths from, and the step's changes, whose paths are the same arrays, then
  /// find their paths' JSON without hashing them again.
  package func changedPathTexts(_ paths: [TracePath]) -> [String] {
    if StringListBitsKey.sameBits(paths, lastChangedPaths.paths) { return lastChangedPaths.texts }
    let slot = RecentPathSets.slot(of: paths)
    lastPathSetSlot = slot
    if let entry = recentPathSets.entry(of: paths, at: slot) {
      lastChangedPaths = (entry.paths, entry.texts)
      // `pathSetID` then finds the id as the last set's.
      if let id = entry.id { lastPathSet = (entry.texts, id) }
      return entry.texts
    }
    let texts = lineEncoder.changedPathTexts(paths)
    lastChangedPaths = (paths, texts)
    recentPathSets.keep(paths, texts: texts, at: slot)
    return texts
  }

  /// Whether step `step`, appended after step `lastStep`, is stored with a keyframe: a
  /// multiple of the keyframe interval, or the first step after a gap.
  ///
  /// ```swift
  /// TraceWriter.isKeyframe(step: 512, after: 511, interval: 256)  // true
  /// TraceWriter.isKeyframe(step: 7, after: 5, interval: 256)      // true: step 6 is missing
  /// ```
  package static func isKeyframe(step: Int, after lastStep: Int, interval: Int) -> Bool {
    step > lastStep + 1 || step % interval == 0
  }

  /// Checks the step and records the gap before it; returns whether it is a keyframe.
  private func prepareAppend(_ record: StepRecord) throws(TraceError) -> Bool {
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
    if record.step > lastStep + 1 {
      let dropped = record.step - lastStep - 1
      let after = lastStep
      try sql { () throws(SQLiteError) in
        try insertGapIfAbsent.bind(after, at: 1)
        try insertGapIfAbsent.bind(dropped, at: 2)
        try insertGapIfAbsent.run()
      }
    }
    return Self.isKeyframe(
      step: record.step, after: lastStep, interval: metadata.keyframeInterval)
  }

  /// Writes the step prepared by `prepareAppend`, and seals its chunk when full.
  private func completeAppend(_ record: StepRecord, stateJSON: consuming [UInt8]?, keyframe: Bool)
    throws(TraceError)
  {
    try write(record, stateJSON: stateJSON, keyframe: keyframe)
    if chunk.stepCount >= chunkStepLimit || chunk.rawBytes >= Self.chunkByteLimit {
      try storePart(ends: true)
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

  private func write(_ record: StepRecord, stateJSON: consuming [UInt8]?, keyframe: Bool)
    throws(TraceError)
  {
    let wall = Self.wallColumns(
      record.wallTime, monotonicNanos: record.monotonicNanos, start: startWallTime,
      isFirst: record.step == 0)
    let action = try actionID(record.actionPath)
    let changed = try pathSetID(record.changedPaths)
    let origin = try originID(record.origin)
    let keyframeData: (frame: [UInt8], rawSize: Int, hash: UInt64)?
    // Taken, not copied: the newline is appended to the only reference to the bytes.
    if keyframe, var json = stateJSON.take() {
      json.append(UInt8(ascii: "\n"))
      guard json.count <= TraceSchema.payloadLimit else {
        throw TraceError(
          .payloadTooLarge(bytes: json.count, limit: TraceSchema.payloadLimit),
          file: path, step: record.step)
      }
      keyframeData = (
        try compress(json, level: Self.keyframeCompressionLevel, step: record.step), json.count,
        record.stateHash
      )
    } else {
      keyframeData = nil
    }
    // The line joins the chunk only once nothing above can refuse the step.
    if chunk.firstStep == nil { chunk.firstStep = record.step }
    // A part's first line and a line after a gap carry their step; the others follow the
    // line before them.
    let carriesStep = chunk.pendingFirstStep == nil || record.step != chunk.lastStep + 1
    if chunk.pendingFirstStep == nil { chunk.pendingFirstStep = record.step }
    chunk.lastStep = record.step
    chunk.stepCount += 1
    chunk.pendingCount += 1
    let before = chunk.pending.count
    StepLine.write(
      record, into: &chunk.pending, encoder: &lineEncoder, carriesStep: carriesStep)
    chunk.rawBytes += chunk.pending.count - before
    // The row waits for the commit, where rows are inserted many to a statement.
    pendingSteps.append(
      StepColumns(
        step: record.step, monotonicNanos: record.monotonicNanos, wallTime: wall.time,
        wallOffset: wall.offset, origin: origin, action: action, changed: changed,
        stateHash: record.stateHash, reducerNanos: record.reducerNanos))
    if let keyframeData {
      try sql { () throws(SQLiteError) in
        keyframeCount += 1
        try insertKeyframe.bind(record.step, at: 1)
        try insertKeyframe.bind(bitPattern: keyframeData.hash, at: 2)
        try insertKeyframe.bind(keyframeData.rawSize, at: 3)
        try insertKeyframe.bind(blob: keyframeData.frame, at: 4)
        try insertKeyframe.run()
      }
    }
    lastStep = record.step
  }

  // MARK: Interning

  /// How a wall time is stored: as an offset in nanoseconds from `start + mono_ns` when one
  /// gives the same `Double` back (the usual case: both clocks move together), else as is.
  /// Readers and the `step_index` view compute `start + Double(mono_ns + offset) / 1e9`, with
  /// `start` the (real) wall time of step 0.
  ///
  /// Of the offsets that give the time back, the one nearest 0: a `Double` of today's epoch
  /// resolves about 238 ns, so many offsets do, and SQLite stores 0 in no bytes and a small
  /// integer in fewer than the clocks' true offset (a recorder reads them microseconds apart).
  static func wallColumns(
    _ wallTime: Double, monotonicNanos: UInt64, start: Double, isFirst: Bool
  ) -> (offset: Int64, time: Double?) {
    guard !isFirst else { return (0, wallTime) }
    let mono = Int64(bitPattern: monotonicNanos)
    // The time an offset gives back; nil when `mono_ns + offset` overflows.
    func time(_ candidate: Int64) -> Double? {
      let (total, over) = mono.addingReportingOverflow(candidate)
      return over ? nil : start + Double(total) / 1e9
    }
    if time(0) == wallTime { return (0, nil) }
    let elapsed = ((wallTime - start) * 1e9).rounded()
    guard elapsed.isFinite, abs(elapsed) < 9e18 else { return (0, wallTime) }
    let (rounded, overflow) = Int64(elapsed).subtractingReportingOverflow(mono)
    guard !overflow else { return (0, wallTime) }
    // The rounding to whole nanoseconds can land one off the value that reproduces the time.
    let offset: Int64
    if time(rounded) == wallTime {
      offset = rounded
    } else if time(rounded &- 1) == wallTime {
      offset = rounded &- 1
    } else if time(rounded &+ 1) == wallTime {
      offset = rounded &+ 1
    } else {
      return (0, wallTime)
    }
    // The time an offset gives never decreases as the offset grows, so the offsets that give
    // `wallTime` are one run of integers holding `offset` and not 0: its end nearest 0 is
    // found by bisection between 0 (which gives another time) and `offset`.
    var (far, near) = (offset, Int64(0))
    while far - near > 1 || near - far > 1 {
      let middle = near + (far - near) / 2
      if time(middle) == wallTime { far = middle } else { near = middle }
    }
    return (far, nil)
  }

  private func actionID(_ actionPath: String) throws(TraceError) -> Int {
    if let entry = recentActions.entry(of: actionPath, byBytes: false) {
      return recentActions[entry]
    }
    let id = try actionIDByBytes(actionPath)
    recentActions.keep(actionPath, id)
    return id
  }

  private func actionIDByBytes(_ actionPath: String) throws(TraceError) -> Int {
    let key = StringBytesKey(actionPath)
    if let known = actionIDsByBytes[key] { return known }
    // From 0: step 0's `""` takes the id SQLite stores in no bytes, and the first action
    // recorded the other one (1).
    let id = try actionIDs.id(of: actionPath) { id throws(TraceError) in
      try sql { () throws(SQLiteError) in
        try insertAction.bind(id, at: 1)
        try insertAction.bind(actionPath, at: 2)
        try insertAction.run()
      }
    }
    actionIDsByBytes[key] = id
    return id
  }

  private func pathSetID(_ paths: [String]) throws(TraceError) -> Int {
    if let last = lastPathSet, StringListBitsKey.sameBits(paths, last.paths) { return last.id }
    let id = try pathSetIDByBits(paths)
    lastPathSet = (paths, id)
    if let slot = lastPathSetSlot { recentPathSets.noteID(id, of: paths, at: slot) }
    return id
  }

  private func pathSetIDByBits(_ paths: [String]) throws(TraceError) -> Int {
    let bits = StringListBitsKey(paths)
    if let known = pathSetIDsByBits[bits] { return known }
    var isNew = false
    let id = try pathSetIDByBytes(paths, isNew: &isNew)
    // A set is kept by its bits once it comes again: a recording whose sets keep changing (a
    // toggle of one of 10,000 rows names a new set each step) would only fill the table.
    guard !isNew else { return id }
    if pathSetIDsByBits.count >= Self.pathSetBitsLimit {
      pathSetIDsByBits.removeAll(keepingCapacity: true)
    }
    pathSetIDsByBits[bits] = id
    return id
  }

  private func pathSetIDByBytes(_ paths: [String], isNew: inout Bool) throws(TraceError) -> Int {
    // From 0, as actions: step 0's `[]`, then the first set a step changed, cost no bytes.
    try pathSetIDs.id(of: StringListKey(paths)) { id throws(TraceError) in
      isNew = true
      scratch.removeAll(keepingCapacity: true)
      // The set's texts are most often the step's, just named from its changed paths.
      let named =
        StringListBitsKey.sameBits(paths, lastChangedPaths.texts) ? lastChangedPaths.paths : []
      lineEncoder.writeChangedPathSet(paths, namedFrom: named, into: &scratch)
      try sql { () throws(SQLiteError) in
        try insertPathSet.bind(id, at: 1)
        try insertPathSet.bind(utf8: scratch, at: 2)
        try insertPathSet.run()
      }
    }
  }

  /// The code of `StepOrigin.storedCode`, or for an effect (and an inspector's step) the id
  /// of its `origins` row, which holds the effect's UUID (the step's `jump:<k>`,
  /// `continue:<k>`).
  private func originID(_ origin: StepOrigin) throws(TraceError) -> Int {
    if let code = origin.storedCode { return code }
    if let known = originIDs[origin] { return known }
    let text: String
    if case .effect(let uuid) = origin {
      text = UUIDText.string(uuid)
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

  // MARK: Rows at the commit

  /// Inserts the `steps` rows appended since the last commit, `stepRowsPerInsert` to a
  /// statement and the rest one by one.
  private func insertPendingSteps() throws(TraceError) {
    guard !pendingSteps.isEmpty else { return }
    try sql { () throws(SQLiteError) in
      try insert(
        pendingSteps, many: &insertSteps, perInsert: Self.stepRowsPerInsert, columns: 8,
        one: insertStep, sql: Self.insertStepsSQL
      ) { row, statement, base throws(SQLiteError) in
        try bind(row, to: statement, at: base)
      }
    }
    pendingSteps.removeAll(keepingCapacity: true)
  }

  /// Inserts `rows` with `many` (`perInsert` rows a statement, `columns` parameters a row,
  /// compiled from `sql(perInsert)` when first needed) while a whole statement's rows are
  /// left, and the rest one by one with `one`. `bind` binds all `columns` parameters of its
  /// row, so the statements' bindings are not cleared between runs. Each row is bound where
  /// it is in `rows`' storage: an array's subscript copied it (for an `effects` row, five
  /// strings and an array retained, then released, about 300 instructions).
  private func insert<Row>(
    _ rows: [Row], many: inout SQLiteStatement?, perInsert: Int, columns: Int,
    one: SQLiteStatement, sql: (Int) -> String,
    bind: (borrowing Row, SQLiteStatement, Int32) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    let result = rows.withUnsafeBufferPointer { rows in
      Result { () throws(SQLiteError) in
        try insert(
          rows, many: &many, perInsert: perInsert, columns: columns, one: one, sql: sql,
          bind: bind)
      }
    }
    try result.get()
  }

  private func insert<Row>(
    _ rows: UnsafeBufferPointer<Row>, many: inout SQLiteStatement?, perInsert: Int,
    columns: Int, one: SQLiteStatement, sql: (Int) -> String,
    bind: (borrowing Row, SQLiteStatement, Int32) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    var next = 0
    while rows.count - next >= perInsert {
      let statement: SQLiteStatement
      if let many {
        statement = many
      } else {
        statement = try database.prepare(sql(perInsert))
        many = statement
      }
      for offset in 0..<perInsert {
        try bind(rows[next + offset], statement, Int32(offset * columns))
      }
      // `bind` binds every parameter of its row: nothing is left from the run before.
      try statement.runRebindingAll()
      next += perInsert
    }
    while next < rows.count {
      try bind(rows[next], one, 0)
      try one.runRebindingAll()
      next += 1
    }
  }

  /// Binds a `steps` row to the eight parameters after `base`.
  private func bind(_ row: StepColumns, to statement: SQLiteStatement, at base: Int32)
    throws(SQLiteError)
  {
    // The step and its time differ from every row before; the other columns often hold what
    // the same row of the statement's last run held (`bind(remembering:at:)`). The step and
    // time go through it too: it binds what differs, and the optimizer inlines it here, where
    // the plain integer bind was left out of line (about 25 instructions a row more, measured).
    try statement.bind(remembering: Int64(row.step), at: base + 1)
    try statement.bind(remembering: Int64(bitPattern: row.monotonicNanos), at: base + 2)
    // An integer is the offset from step 0's wall time plus mono_ns, a real the time itself.
    if let time = row.wallTime {
      try statement.bind(time, at: base + 3)
    } else {
      try statement.bind(remembering: Int64(row.wallOffset), at: base + 3)
    }
    try statement.bind(remembering: Int64(row.origin), at: base + 4)
    try statement.bind(remembering: Int64(row.action), at: base + 5)
    try statement.bind(remembering: Int64(row.changed), at: base + 6)
    try statement.bind(remembering: Int64(bitPattern: row.stateHash), at: base + 7)
    try statement.bind(remembering: Int64(bitPattern: row.reducerNanos), at: base + 8)
  }

  // MARK: Effects

  /// Records an effect the store started (with whatever of its ending is already known).
  ///
  /// The record is consumed: it moves into the pending effects, where a borrowed one was
  /// copied (its texts, outcome and sends retained) and the caller's then destroyed.
  public func effectStarted(_ record: consuming EffectRecord) throws(TraceError) {
    try checkWritable(step: record.startedByStep)
    pendingEffectPositions[EffectKey(record.id)] = pendingEffects.count
    pendingEffects.append(record)
    effectCount += 1
  }

  /// Inserts the effects started since the last commit, in the order they started, each with
  /// its end if it came before the commit: the rows a commit makes visible are the ones an
  /// insert at the start and an update at the end made, in one row each instead of two
  /// statements, `effectRowsPerInsert` rows to a statement and the rest one by one; then the
  /// steps they sent.
  private func insertPendingEffects() throws(TraceError) {
    guard !pendingEffects.isEmpty else { return }
    let records = pendingEffects
    pendingEffects.removeAll(keepingCapacity: true)
    pendingEffectPositions.removeAll(keepingCapacity: true)
    try sql { () throws(SQLiteError) in
      try insert(
        records, many: &insertEffects, perInsert: Self.effectRowsPerInsert, columns: 14,
        one: insertEffect, sql: Self.insertEffectsSQL
      ) { record, statement, base throws(SQLiteError) in
        try bind(record, to: statement, at: base)
      }
      // By index: a `for … in` copied every record to look at its sends.
      for index in records.indices where !records[index].sentSteps.isEmpty {
        let id = records[index].id
        for step in records[index].sentSteps {
          try insertSend.bind(uuidText: id, at: 1)
          try insertSend.bind(step, at: 2)
          try insertSend.run()
        }
      }
    }
  }

  /// Binds an `effects` row to the fourteen parameters after `base`.
  private func bind(
    _ record: borrowing EffectRecord, to statement: SQLiteStatement, at base: Int32
  ) throws(SQLiteError) {
    // Texts bound in place: an effect row has up to seven, and a copy of each was a malloc and
    // a free (about 700 instructions).
    // A NULL, an outcome and a kind are bound only when the same row of the statement's last
    // run held another value (`remembering`): most rows have the same NULL columns, and most
    // effects are `run`s and end the same way.
    try statement.bind(uuidText: record.id, at: base + 1)
    try statement.bind(record.startedByStep, at: base + 2)
    try statement.bind(borrowing: record.cancelID, at: base + 3)
    try statement.bind(borrowing: record.file, at: base + 4)
    try statement.bind(record.line.map(Int64.init), at: base + 5)
    try statement.bind(record.startNanos.map { Int64(bitPattern: $0) }, at: base + 6)
    try statement.bind(record.endNanos.map { Int64(bitPattern: $0) }, at: base + 7)
    try bindOutcome(record.outcome, statement: statement, at: base + 8)
    if let kind = record.kind, let text = EffectRecord.knownKindText(kind) {
      try statement.bind(remembering: text, at: base + 11)
    } else {
      try statement.bind(borrowing: record.kind, at: base + 11)
    }
    if let parent = record.parentID {
      try statement.bind(uuidText: parent, at: base + 12)
    } else {
      try statement.bindNull(rememberingAt: base + 12)
    }
    try statement.bind(record.startedAfterStep.map(Int64.init), at: base + 13)
    try statement.bind(record.endedAfterStep.map(Int64.init), at: base + 14)
  }

  /// Records that the effect sent the action reduced as `step`.
  public func effectSent(id: UUID, step: Int) throws(TraceError) {
    try checkWritable(step: step)
    try sql { () throws(SQLiteError) in
      try insertSend.bind(uuidText: id, at: 1)
      try insertSend.bind(step, at: 2)
      try insertSend.run()
    }
  }

  /// Records how an effect ended, and how many steps had been reduced then.
  public func effectEnded(
    id: UUID, endNanos: UInt64, outcome: EffectOutcome, endedAfterStep: Int? = nil
  ) throws(TraceError) {
    try checkWritable(step: nil)
    if let position = pendingEffectPositions[EffectKey(id)] {
      pendingEffects[position].endNanos = endNanos
      pendingEffects[position].outcome = outcome
      pendingEffects[position].endedAfterStep = endedAfterStep
      return
    }
    var changed = 0
    try sql { () throws(SQLiteError) in
      try updateEffectEnd.bind(bitPattern: endNanos, at: 1)
      try bindOutcome(outcome, statement: updateEffectEnd, at: 2)
      try updateEffectEnd.bind(endedAfterStep.map(Int64.init), at: 5)
      try updateEffectEnd.bind(uuidText: id, at: 6)
      try updateEffectEnd.run()
      changed = database.changes
    }
    guard changed == 1 else {
      throw TraceError(.invalidWrite("effect \(id.uuidString) ended but never started"),
                       file: path)
    }
  }

  /// Binds the outcome's three columns.
  private func bindOutcome(_ outcome: EffectOutcome, statement: SQLiteStatement, at index: Int32)
    throws(SQLiteError)
  {
    try statement.bind(remembering: outcome.storageStaticText, at: index)
    if case .cancelled(let reason, let byStep) = outcome {
      try statement.bind(borrowing: reason, at: index + 1)
      try statement.bind(byStep.map(Int64.init), at: index + 2)
    } else {
      try statement.bindNull(rememberingAt: index + 1)
      try statement.bindNull(rememberingAt: index + 2)
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

  // MARK: Metadata

  /// Stores a free-form metadata pair (`extra.<key>` in `meta`), replacing an earlier value;
  /// committed with the next commit.
  public func setExtra(_ key: String, _ value: String) throws(TraceError) {
    try checkWritable(step: nil)
    try sql { () throws(SQLiteError) in try setMeta(TraceSchema.Key.extraPrefix + key, value) }
  }

  /// Stores the Swift type table (`swift_types` in `meta`), replacing an earlier one;
  /// committed with the next commit. The commit writes the last table set before it, once.
  public func setSwiftTypes(_ table: SwiftTypeTable) throws(TraceError) {
    try checkWritable(step: nil)
    pendingSwiftTypes = table
  }

  /// Stores the dependency keys the feature read (`dependency_keys` in `meta`), replacing
  /// an earlier list; committed with the next commit.
  public func setDependencyKeys(_ keys: [DependencyKeyRecord]) throws(TraceError) {
    try checkWritable(step: nil)
    try sql { () throws(SQLiteError) in
      try setMeta(TraceSchema.Key.dependencyKeys, DependencyKeyRecord.jsonText(keys))
    }
  }

  // MARK: Commits

  /// Commits everything pending in one transaction. The lines since the last flush are stored
  /// as the open chunk's next part, so a crash after `flush()` loses nothing written before it.
  public func flush() throws(TraceError) {
    try checkWritable(step: nil)
    try storePart(ends: false)
    try commit()
  }

  /// Flushes, ends the open chunk's frame, marks effects still running as `unfinished`, marks
  /// the trace complete and folds the write-ahead log into the file, so the closed trace is
  /// one file. The writer accepts nothing afterwards.
  ///
  /// A reader attached at that moment (a live `inspector follow`) keeps the log files in
  /// place until it detaches; `close()` waits up to `readerGrace` for that.
  public func close(readerGrace: Duration = .seconds(1)) throws(TraceError) {
    try checkWritable(step: nil)
    try storePart(ends: true)
    if let part = chunk.lastPart {
      // The last lines were stored before the end was known: their row gets the end mark.
      try endFrame(after: part)
    }
    try insertPendingEffects()
    try sql { () throws(SQLiteError) in
      try database.execute("UPDATE effects SET outcome = 'unfinished' WHERE outcome = 'running'")
      try setMeta(TraceSchema.Key.chunkCount, String(chunkCount))
      try setMeta(TraceSchema.Key.keyframeCount, String(keyframeCount))
      try setMeta(TraceSchema.Key.effectCount, String(effectCount))
      try setMeta(TraceSchema.Key.payloadBytes, String(payloadBytes))
      try setMeta(TraceSchema.Key.payloadRawBytes, String(payloadRawBytes))
      try setMeta(TraceSchema.Key.complete, "1")
    }
    try commit()
    isClosed = true
    let grace = readerGrace.components
    let graceMilliseconds = Int32(
      clamping: grace.seconds * 1_000 + grace.attoseconds / 1_000_000_000_000_000)
    database.setBusyTimeout(milliseconds: max(0, graceMilliseconds))
    // Folds the log into the main file (waiting out readers in a read transaction), so the
    // file alone holds everything; then leaves WAL mode, which needs the file to ourselves,
    // so the closed trace has no `-wal`/`-shm` beside it and opens where they cannot be
    // created (a read-only directory, a bug report's attachment). The trace is complete
    // either way, so a failure here costs only the two extra files.
    //
    // The fold runs unsynced: the log is emptied and deleted right after, so its pages are
    // dropped from the page cache without reaching the disk. Folded under `synchronous =
    // NORMAL`, the log's pages went to the disk as well (measured on the bench's slow app:
    // 22 pages of log for a 17-page trace). What makes the closed trace durable is the sync
    // of the file itself: leaving WAL mode is a rollback-journal commit, which under
    // `synchronous = NORMAL` syncs its journal and then the file, with every page the fold
    // wrote; if a reader kept WAL mode, the file is synced directly.
    try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try? database.execute("PRAGMA synchronous = NORMAL")
    if !leaveWALMode(within: readerGrace) {
      _ = database.syncFile()
    }
    database.close()
  }

  /// Switches the file to rollback-journal mode, which needs every other connection gone:
  /// SQLite does not wait for that (no busy handler on this lock), so this retries until the
  /// readers attached at the end of a recording (a live `follow`, which leaves once it sees
  /// the trace complete) have let go, or the grace ends. False when the file stayed in WAL
  /// mode.
  private func leaveWALMode(within grace: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: grace)
    while true {
      if (try? database.scalarText("PRAGMA journal_mode = DELETE")) == "delete" { return true }
      guard clock.now < deadline else { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
  }

  /// Stores the lines appended since the last part as the open chunk's next part (its frame's
  /// next blocks); with `ends`, also the frame's end mark, which seals the chunk.
  private func storePart(ends: Bool) throws(TraceError) {
    guard let chunkStep = chunk.firstStep else { return }
    guard let first = chunk.pendingFirstStep else {
      if ends, chunk.lastPart == nil { chunk = OpenChunk() }
      return
    }
    let data: [UInt8]
    do {
      data = try stream.part(chunk.pending, ends: ends)
    } catch {
      throw TraceError(.invalidWrite(error.description), file: path, chunk: chunkStep)
    }
    try sql { () throws(SQLiteError) in
      try insertChunk.bind(first, at: 1)
      try insertChunk.bind(chunkStep, at: 2)
      try insertChunk.bind(chunk.lastStep, at: 3)
      try insertChunk.bind(chunk.pendingCount, at: 4)
      try insertChunk.bind(chunk.pending.count, at: 5)
      try insertChunk.bind(blob: data, at: 6)
      try insertChunk.run()
    }
    if first == chunkStep { chunkCount += 1 }
    payloadBytes += data.count
    payloadRawBytes += chunk.pending.count
    if ends {
      chunk = OpenChunk()
    } else {
      chunk.lastPart = (first, data)
      chunk.pending.removeAll(keepingCapacity: true)
      chunk.pendingFirstStep = nil
      chunk.pendingCount = 0
    }
  }

  /// Appends the frame's end mark to its last stored part (one small row rewritten once).
  private func endFrame(after part: (firstStep: Int, data: [UInt8])) throws(TraceError) {
    let end: [UInt8]
    do {
      end = try stream.end()
    } catch {
      throw TraceError(.invalidWrite(error.description), file: path, chunk: chunk.firstStep)
    }
    try sql { () throws(SQLiteError) in
      try updateChunkEnd.bind(blob: part.data + end, at: 1)
      try updateChunkEnd.bind(part.firstStep, at: 2)
      try updateChunkEnd.run()
    }
    payloadBytes += end.count
    chunk = OpenChunk()
  }

  private func commit() throws(TraceError) {
    try insertPendingSteps()
    try insertPendingEffects()
    if let table = pendingSwiftTypes.take() {
      try sql { () throws(SQLiteError) in try setMeta(TraceSchema.Key.swiftTypes, table.jsonText) }
    }
    guard inTransaction else { return }
    try sql { () throws(SQLiteError) in try database.execute("COMMIT") }
    inTransaction = false
    if database.isStillAtPath == false {
      // The commit went to a file no one can reach: nothing is kept at the path.
      committedStep = -1
      let error = TraceError(.fileRemoved, file: path)
      failure = error
      throw error
    }
    committedStep = lastStep
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

  private func compress(_ bytes: [UInt8], level: Int32, step: Int?)
    throws(TraceError) -> [UInt8]
  {
    do {
      return try LZ4Frame.compress(bytes, level: level)
    } catch {
      throw TraceError(.database(error.description), file: path, step: step)
    }
  }
}

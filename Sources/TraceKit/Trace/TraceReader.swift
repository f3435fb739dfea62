import Foundation

/// Reads a `.rewind` trace: its summary, the step index, the state at any step (nearest
/// keyframe plus the diffs after it, hash verified), effects, gaps and the reducer tree.
///
/// ```swift
/// let reader = try TraceReader(path: "session.rewind")
/// print(try reader.info().stepCount)          // 1000
/// print(try reader.state(at: 500))            // (count: 500)
/// ```
///
/// Every query runs in its own read transaction, so a reader sees what a writer in another
/// process committed since the last query (live follow) without reopening. Damage is reported
/// as `TraceError` naming the file and the step or chunk; nothing a file holds can trap.
///
/// A reader belongs to one thread at a time; it is not `Sendable`.
public final class TraceReader {
  public let path: String
  let database: SQLiteConnection
  /// The trace's format version (one of `TraceSchema.readableVersions`).
  let formatVersion: Int

  private let selectRow: SQLiteStatement
  let selectChunkStatement: SQLiteStatement
  let selectKeyframeStatement: SQLiteStatement
  let selectStepsStatement: SQLiteStatement
  let selectChunkRangeStatement: SQLiteStatement

  /// The last decompressed chunk: reading steps in order decompresses each chunk once.
  var cachedChunk: DecodedChunk?
  /// The last reconstructed state: `state(at: n + 1)` after `state(at: n)` applies one diff.
  var cachedState: (step: Int, state: TraceValue)?

  /// The parsed paths of recent changes, shared by every chunk this reader decodes.
  let pathCache = StepLine.PathCache()

  /// The interned index values read so far (see `TraceReader+Index.swift`).
  // Read for every decoded row, by one thread at a time: no dynamic exclusivity checks.
  @exclusivity(unchecked) var interned = InternedIndex()

  /// The function a replay's scan reads each row through (`forEachEntry`), registered by the
  /// first such scan.
  var rowCapture: SQLiteRowCapture?

  /// Whether the `effects` table has the columns of the effects' kind, parent and surrounding
  /// steps (asked once: a table's columns do not change under a reader).
  var hasEffectLifecycle: Bool?

  /// The recorded gaps by the last step each drops (its `afterStep` as the value), loaded when
  /// the index first jumps over step numbers (see `TraceReader+Validation.swift`).
  var gapEnds: [Int: Int]?

  static let rowColumnNames = [
    "step", "mono_ns", "wall", "origin", "action", "changed", "state_hash", "reducer_ns",
  ]
  static let rowColumns = rowColumnNames.joined(separator: ", ")
  static let rowColumnCount = rowColumnNames.count
  /// The rows a replay's scan reads between two returned by SQLite (`forEachEntry`): enough
  /// that returning one costs nothing a row, few enough to stay in the first-level cache.
  static let rowCaptureRows = 64

  /// Opens a trace for reading. The file is checked before anything is trusted: that it
  /// exists, is a file, is SQLite, is whole, is a Rewind trace of a known version, and has
  /// every table.
  public init(path: String) throws(TraceError) {
    self.path = path
    let standsAlone = try Self.checkFile(path)
    do {
      // A closed trace whose write-ahead log is gone but empty (a reader was attached when
      // its writer closed it) is read as it is: opened normally, SQLite would create a new
      // log beside it, or fail in a read-only directory.
      database = try SQLiteConnection(
        path: path, mode: standsAlone ? .readOnlyImmutable : .readOnly)
    } catch {
      throw Self.openError(error, path: path)
    }
    database.setBusyTimeout(milliseconds: 5_000)
    formatVersion = try Self.checkSchema(database, path: path)
    let chunkColumn = formatVersion == 1 ? "first_step" : "chunk"
    do {
      selectRow = try database.prepare(
        "SELECT \(Self.rowColumns) FROM steps WHERE step = ?")
      selectChunkStatement = try database.prepare(
        """
        SELECT first_step, \(chunkColumn), last_step, step_count, raw_size, data FROM chunks
        WHERE first_step >= ? ORDER BY first_step
        """)
      selectChunkRangeStatement = try database.prepare(
        """
        SELECT \(chunkColumn), last_step FROM chunks WHERE first_step <= ?
        ORDER BY first_step DESC LIMIT 1
        """)
      selectKeyframeStatement = try database.prepare(
        """
        SELECT step, state_hash, raw_size, data FROM keyframes WHERE step <= ?
        ORDER BY step DESC LIMIT 1
        """)
      selectStepsStatement = try database.prepare(
        "SELECT step FROM steps WHERE step > ? AND step <= ? ORDER BY step")
    } catch {
      throw Self.openError(error, path: path)
    }
  }

  /// Forgets cached metadata so the next query describes the file as it is now. Queries
  /// already see new commits; cached chunks are kept only for steps they fully hold.
  public func refresh() {
    cachedState = nil
    gapEnds = nil
  }

  // MARK: Opening checks

  /// Checks the file before SQLite opens it; returns whether it must be opened as a file that
  /// stands alone, without its write-ahead log (see `init`).
  private static func checkFile(_ path: String) throws(TraceError) -> Bool {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TraceError(.fileNotFound, file: path)
    }
    guard !isDirectory.boolValue else { throw TraceError(.isDirectory, file: path) }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw TraceError(.database("cannot open the file for reading"), file: path)
    }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 100)).map { [UInt8]($0) } ?? []
    let magic = Array("SQLite format 3\0".utf8)
    guard header.count == 100, Array(header[0..<16]) == magic else {
      throw TraceError(.notSQLite, file: path)
    }
    // While a write-ahead log exists the main file may legitimately lag its header (a
    // checkpoint in progress), so the size check runs only on a file that stands alone.
    let walPath = path + "-wal"
    let walSize = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int)
    // Bytes 18-19 are 2 while the file is in WAL mode: its writer is running, was killed, or
    // closed it while a reader was attached. Without its log beside it, only the last case
    // leaves a whole trace in the file: ask the file itself whether it was closed.
    var standsAlone = false
    if header[18] == 2, walSize == nil {
      guard isClosedTrace(path) else { throw TraceError(.missingLog(walPath), file: path) }
      standsAlone = true
    }
    guard walSize == nil || walSize == 0 else { return false }
    var pageSize = Int(header[16]) << 8 | Int(header[17])
    if pageSize == 1 { pageSize = 65_536 }
    let pageCount =
      Int(header[28]) << 24 | Int(header[29]) << 16 | Int(header[30]) << 8 | Int(header[31])
    // The page count is valid only when "version-valid-for" equals the change counter.
    guard header[24..<28] == header[92..<96], pageCount > 0 else { return standsAlone }
    let expected = pageSize * pageCount
    let actual =
      (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? expected
    if actual < expected {
      throw TraceError(.truncated(expectedBytes: expected, actualBytes: actual), file: path)
    }
    return standsAlone
  }

  /// Whether the file on its own says its writer closed it (`meta.complete` is 1).
  private static func isClosedTrace(_ path: String) -> Bool {
    guard let database = try? SQLiteConnection(path: path, mode: .readOnlyImmutable),
      let complete = try? metaValue(database, TraceSchema.Key.complete)
    else { return false }
    return complete == "1"
  }

  /// Checks that the file is a trace of a version this reader reads, with every table;
  /// returns the version.
  private static func checkSchema(_ database: SQLiteConnection, path: String)
    throws(TraceError) -> Int
  {
    do {
      let applicationID = try database.scalarInt("PRAGMA application_id") ?? 0
      let userVersion = try database.scalarInt("PRAGMA user_version") ?? 0
      var tables: Set<String> = []
      let statement = try database.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table'")
      defer { statement.reset() }
      while try statement.step() { tables.insert(statement.text(at: 0)) }
      guard applicationID == Int64(TraceSchema.applicationID) else {
        let detail =
          tables.isEmpty
          ? "it has no tables"
          : "its application_id is \(applicationID), not \(TraceSchema.applicationID) ('RWND')"
        throw TraceError(.notATrace(detail), file: path)
      }
      guard tables.contains("meta") else { throw TraceError(.missingTable("meta"), file: path) }
      guard let version = try metaValue(database, TraceSchema.Key.formatVersion) else {
        throw TraceError(.corruptMetadata("no format_version"), file: path)
      }
      let number = try checkVersion(userVersion: userVersion, formatVersion: version, path: path)
      for table in TraceSchema.tables where !tables.contains(table) {
        throw TraceError(.missingTable(table), file: path)
      }
      try checkColumns(database, version: number, path: path)
      return number
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw openError(error, path: path)
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
  }

  static func metaValue(_ database: SQLiteConnection, _ key: String)
    throws(SQLiteError) -> String?
  {
    let statement = try database.prepare("SELECT value FROM meta WHERE key = ?")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    return try statement.step() ? statement.text(at: 0) : nil
  }

  static func openError(_ error: SQLiteError, path: String) -> TraceError {
    if error.isNotADatabase {
      return TraceError(.notSQLite, file: path, detail: error.description)
    }
    if error.isCantOpen, var logError = logError(path: path) {
      logError.detail = error.description
      return logError
    }
    return TraceError(error, file: path)
  }

  /// Turns a SQLite failure during a query into a trace error at the step or chunk.
  func queryError(_ error: SQLiteError, step: Int? = nil, chunk: Int? = nil) -> TraceError {
    TraceError(error, file: path, step: step, chunk: chunk)
  }

  // MARK: Rows

  /// The index row of one step.
  public func row(at step: Int) throws(TraceError) -> StepRow {
    let found: StepRow?
    defer { selectRow.reset() }
    let hasRow: Bool
    do {
      try selectRow.bind(step, at: 1)
      hasRow = try selectRow.step()
    } catch {
      throw queryError(error, step: step)
    }
    found = hasRow ? try decodeRow(selectRow) : nil
    guard let found else {
      let last = try lastStep()
      if step < 0 || step > last {
        throw TraceError(.stepOutOfRange(lastStep: last), file: path, step: step)
      }
      let dropped = try checkedGaps(lastStep: last).contains { gap in
        gap.afterStep < step && step <= gap.afterStep + gap.dropped
      }
      guard dropped else {
        throw TraceError(.missingIndexRows(first: step, last: step), file: path, step: step)
      }
      throw TraceError(.missingStep, file: path, step: step)
    }
    return found
  }

  /// The index row and the chunk (its first step) holding the step's payload.
  func indexRow(at step: Int) throws(TraceError) -> (row: StepRow, chunk: Int) {
    let row = try row(at: step)
    return (row, try chunkRange(holding: step).first)
  }

  /// The chunk holding `step` (its first step, which names it) and the last step of the row
  /// that holds the step's line: the row with the largest first step at or before it (rows
  /// are keyed by their first step, so this is one primary-key seek).
  func chunkRange(holding step: Int) throws(TraceError) -> (first: Int, last: Int) {
    let statement = selectChunkRangeStatement
    defer { statement.reset() }
    let found: Bool
    do {
      try statement.bind(step, at: 1)
      found = try statement.step()
    } catch {
      throw queryError(error, step: step)
    }
    guard found else {
      throw TraceError(.corruptIndex("no chunk holds this step"), file: path, step: step)
    }
    let range = try chunkRange(statement, step: step)
    guard range.last >= step else {
      throw TraceError(.corruptIndex("no chunk holds this step"), file: path, step: step)
    }
    return range
  }

  /// The `first_step, last_step` columns of a chunk row, checked.
  func chunkRange(_ statement: SQLiteStatement, step: Int) throws(TraceError)
    -> (first: Int, last: Int)
  {
    let file = path
    let first = try Self.step(statement, 0, "first_step") { reason in
      TraceError(.corruptChunk(reason), file: file, step: step)
    }
    let last = try Self.step(statement, 1, "last_step") { reason in
      TraceError(.corruptChunk(reason), file: file, step: step, chunk: first)
    }
    guard last >= first else {
      throw TraceError(
        .corruptChunk("last_step \(last) is before first_step \(first)"), file: path,
        step: step, chunk: first)
    }
    return (first, last)
  }

  /// The number of the last committed step (an indexed lookup, not a scan).
  public func lastStep() throws(TraceError) -> Int {
    let last: Int64?
    do {
      last = try database.scalarInt("SELECT MAX(step) FROM steps")
    } catch {
      throw queryError(error)
    }
    guard let last else {
      throw TraceError(.corruptIndex("the trace has no steps"), file: path)
    }
    guard Self.stepRange.contains(last) else {
      throw TraceError(
        .corruptIndex("step \(last) is outside 0…\(Self.maximumStep)"), file: path)
    }
    return Int(last)
  }

  /// The index rows of steps `from…to` (both included), in order.
  public func rows(from: Int, to: Int) throws(TraceError) -> [StepRow] {
    var rows: [StepRow] = []
    try typedScan(from: from, to: to) { row in
      rows.append(row)
      return true
    }
    return rows
  }

  /// Streams the index rows of steps `from…to` in order with flat memory; `body` returns
  /// false to stop. Errors are the trace's `TraceError` or whatever `body` throws; a hole in
  /// the step numbers that no recorded gap explains is `.missingIndexRows`.
  ///
  /// ```swift
  /// try reader.forEachRow(from: 999_990, to: .max) { row in
  ///   print(row.step, row.actionPath)
  ///   return true
  /// }
  /// ```
  public func forEachRow(from: Int, to: Int, _ body: (StepRow) throws -> Bool) throws {
    try scan(from: from, to: to, decodeRow, step: { $0.step }, body)
  }

  /// `forEachRow` as a replay reads it: every column checked the same way, in the same order,
  /// with the same messages, but only the step, origin and state hash handed out.
  ///
  /// The rows are read through `SQLiteRowCapture`: one function call in the scan's `WHERE`
  /// copies a row's eight columns, and the scan returns a row only when the capture's buffer
  /// is full, where reading the columns from the statement costs a call of SQLite's per
  /// column and returning each row another. A buffer is read only when its steps go up,
  /// from the last one handed out, within the range: what `ORDER BY step` returns (a plan
  /// that sorts fills it with rows in the table's order, or overruns it). A buffer it cannot
  /// vouch for, or a row whose columns are not all as `checkedColumns` lets through at once,
  /// ends that: the rest is read as the columns, from the same first row, past the rows
  /// already handed out, so a damaged row fails with its own message.
  func forEachEntry(
    from: Int, to: Int, _ body: (StepIndexEntry) throws -> Bool
  ) throws {
    guard let capture = rowCaptureForScan() else {
      try scan(from: from, to: to, decodeEntry, step: { $0.step }, body)
      return
    }
    capture.isInUse = true
    defer { capture.isInUse = false }
    capture.clear()
    let statement = try rowScan(from: from, to: to, filter: capture.filter(Self.rowColumnNames))
    defer { statement.reset() }
    var expected = max(0, from)
    var handed = 0
    var more = true
    while more {
      // The rows held before a row SQLite cannot read are handed out before its error, as
      // they would be one by one.
      var failure: TraceError?
      do {
        more = try nextRow(of: statement)
      } catch {
        failure = error
        more = false
      }
      var vouched = !capture.overran && Self.goUp(capture, after: expected - 1, through: to)
      var index = 0
      while vouched, index < capture.count {
        guard let entry = try decodeEntry(capture.row(index)) else {
          vouched = false
          break
        }
        try checkNoHole(before: entry.step, expected: &expected)
        handed += 1
        guard try body(entry) else { return }
        index += 1
      }
      guard vouched else {
        statement.reset()
        capture.isInUse = false
        try scan(
          from: from, to: to, skipping: handed, decodeEntry, step: { $0.step }, body)
        return
      }
      capture.clear()
      if let failure { throw failure }
    }
  }

  /// Whether the steps of the rows `capture` holds are integers that go up, each above the
  /// one before (the first above `last`), none above `to`.
  @inline(__always)
  private static func goUp(_ capture: SQLiteRowCapture, after last: Int, through to: Int) -> Bool {
    var previous = Int64(last)
    for index in 0..<capture.count {
      guard let step = capture.row(index).integer(at: 0), step > previous, step <= Int64(to)
      else { return false }
      previous = step
    }
    return true
  }

  /// The connection's `SQLiteRowCapture` of a `steps` row, registered on first use; nil while
  /// a scan reads through it (a scan inside another reads the columns) or when SQLite refuses
  /// the function.
  private func rowCaptureForScan() -> SQLiteRowCapture? {
    if let rowCapture { return rowCapture.isInUse ? nil : rowCapture }
    rowCapture = try? SQLiteRowCapture(
      connection: database, columns: Self.rowColumnCount, rows: Self.rowCaptureRows)
    return rowCapture
  }

  /// `forEachEntry` with each row's action path, which typed replay names in its reports.
  func forEachEntryAndActionPath(
    from: Int, to: Int, _ body: ((entry: StepIndexEntry, actionPath: String)) throws -> Bool
  ) throws {
    try scan(from: from, to: to, decodeEntryAndActionPath, step: { $0.entry.step }, body)
  }

  /// The rows `from…to` in order, each decoded by `decode`, with the steps that the index
  /// jumps over checked; `body` returns false to stop. Inlined into each way of reading, so
  /// that each is compiled as if written out.
  /// `skipping`: the first rows are read and checked but not handed to `body` (they were
  /// before).
  @inline(__always)
  private func scan<Row>(
    from: Int, to: Int, skipping skipped: Int = 0,
    _ decode: (SQLiteStatement) throws(TraceError) -> Row, step: (Row) -> Int,
    _ body: (Row) throws -> Bool
  ) throws {
    let statement = try rowScan(from: from, to: to)
    defer { statement.reset() }
    var expected = max(0, from)
    var skipping = skipped
    while try nextRow(of: statement) {
      let row = try decode(statement)
      try checkNoHole(before: step(row), expected: &expected)
      if skipping > 0 {
        skipping -= 1
        continue
      }
      guard try body(row) else { return }
    }
  }

  /// The statement selecting the rows `from…to` in order, bound: a statement per call, so a
  /// scan's body may itself query the reader. `to: .max` selects without an upper bound,
  /// which leaves out no row (a step is at most `Int.max`) and saves SQLite two instructions
  /// of its program a row (reading the step again and comparing it). With `filter` (a
  /// `SQLiteRowCapture`'s term), the rows the term lets through are returned, as one column
  /// that says nothing: the capture holds the rows.
  private func rowScan(
    from: Int, to: Int, filter: String? = nil
  ) throws(TraceError) -> SQLiteStatement {
    do {
      let upTo = to == .max ? "" : " AND step <= ?"
      let columns = filter == nil ? Self.rowColumns : "0"
      let filtered = filter.map { " AND " + $0 } ?? ""
      let statement = try database.prepare(
        "SELECT \(columns) FROM steps WHERE step >= ?\(upTo)\(filtered) ORDER BY step")
      try statement.bind(from, at: 1)
      if to != .max { try statement.bind(to, at: 2) }
      return statement
    } catch {
      throw queryError(error)
    }
  }

  private func nextRow(of statement: SQLiteStatement) throws(TraceError) -> Bool {
    do {
      return try statement.step()
    } catch {
      throw queryError(error)
    }
  }

  /// Steps the index jumps over must be a gap the recorder recorded; any other hole is rows
  /// deleted from the index, never shown as dropped steps.
  @inline(__always)
  private func checkNoHole(before step: Int, expected: inout Int) throws(TraceError) {
    if step > expected { try checkDropped(first: expected, last: step - 1) }
    expected = step + 1
  }

  /// `forEachRow` with a body that cannot fail, so the only error is the trace's.
  func typedScan(from: Int, to: Int, _ body: (StepRow) -> Bool) throws(TraceError) {
    do {
      try forEachRow(from: from, to: to, body)
    } catch let error as TraceError {
      throw error
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
  }

}

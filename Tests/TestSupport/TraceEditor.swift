import Foundation
import TraceKit

/// Edits a trace file row by row through SQLite, the way a person with `sqlite3` (or someone
/// crafting a hostile bug report) would: any value in any column, rows deleted or renumbered,
/// payload chunks and keyframes rewritten as valid LZ4 frames around whatever bytes they like.
///
/// ```swift
/// let editor = try TraceEditor(path: copy)
/// try editor.execute("UPDATE steps SET mono_ns = 'soon' WHERE step = 3")
/// try editor.editChunkLines(firstStep: 0) { lines in lines.removeLast() }
/// editor.close()
/// ```
package final class TraceEditor {
  package let path: String
  private var database: SQLiteConnection

  /// Opens the trace read-write. The file must exist.
  package init(path: String) throws {
    self.path = path
    database = try Self.open(path)
  }

  /// A connection that does not wait for the disk: an edited copy need not survive a crash,
  /// and thousands of variants would otherwise spend their time in `fsync`.
  private static func open(_ path: String) throws -> SQLiteConnection {
    let database = try SQLiteConnection(path: path, mode: .readWrite)
    try database.execute("PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY")
    return database
  }

  deinit {
    database.close()
  }

  /// Runs SQL that returns no rows.
  package func execute(_ sql: String) throws {
    try database.execute(sql)
  }

  /// Binds `values` (`Int64`, `Double`, `String`, `[UInt8]` as a blob, or nil for NULL) in
  /// order and runs one statement: for values SQL text cannot spell simply (a megabyte string).
  package func run(_ sql: String, _ values: [Any?]) throws {
    let statement = try database.prepare(sql)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case nil: try statement.bindNull(at: index)
      case let number as Int64: try statement.bind(number, at: index)
      case let number as Int: try statement.bind(number, at: index)
      case let number as Double: try statement.bind(number, at: index)
      case let text as String: try statement.bind(text, at: index)
      case let bytes as [UInt8]: try statement.bind(blob: bytes, at: index)
      default: throw Unsupported(value: "\(value!)")
      }
    }
    try statement.run()
  }

  /// The integers one query returns (its first column), in order.
  package func integers(_ sql: String) throws -> [Int64] {
    let statement = try database.prepare(sql)
    defer { statement.reset() }
    var values: [Int64] = []
    while try statement.step() { values.append(statement.int64(at: 0)) }
    return values
  }

  /// Lets every column hold NULL: the schema's NOT NULL constraints are removed in place (what
  /// a file written by something else could look like), and the connection reopened.
  package func allowNulls() throws {
    try database.execute(
      """
      PRAGMA writable_schema = ON;
      UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE type = 'table';
      PRAGMA writable_schema = OFF;
      """)
    database.close()
    database = try Self.open(path)
  }

  // MARK: Payloads

  /// The decompressed bytes of the chunk that starts at `firstStep` (its parts' frame, joined).
  package func chunkBytes(firstStep: Int) throws -> [UInt8] {
    let statement = try database.prepare(
      "SELECT data, raw_size FROM chunks WHERE chunk = ? ORDER BY first_step")
    defer { statement.reset() }
    try statement.bind(firstStep, at: 1)
    var frame: [UInt8] = []
    var size = 0
    while try statement.step() {
      frame.append(contentsOf: statement.blob(at: 0))
      size += Int(statement.int64(at: 1))
    }
    guard !frame.isEmpty else {
      throw NoSuchRow(sql: "SELECT data FROM chunks WHERE chunk = ?", key: firstStep)
    }
    return try frame.withUnsafeBytes { buffer in
      try LZ4Frame.decompress(buffer, size: size, limit: 1 << 30, allowsMissingEnd: true).bytes
    }
  }

  /// Stores `bytes` as the chunk's payload, in one part holding a valid LZ4 frame; `raw_size`
  /// follows the new size unless `rawSize` says otherwise (a chunk that lies about itself).
  package func replaceChunk(firstStep: Int, with bytes: [UInt8], rawSize: Int? = nil) throws {
    try run(
      """
      UPDATE chunks SET
        last_step = (SELECT MAX(last_step) FROM chunks WHERE chunk = ?1),
        step_count = (SELECT SUM(step_count) FROM chunks WHERE chunk = ?1),
        data = ?2, raw_size = ?3
      WHERE first_step = ?1
      """,
      [Int64(firstStep), try LZ4Frame.compress(bytes), Int64(rawSize ?? bytes.count)])
    try run(
      "DELETE FROM chunks WHERE chunk = ? AND first_step != chunk", [Int64(firstStep)])
  }

  /// Rewrites the chunk's JSON lines (without their newlines) with `edit`.
  ///
  /// With `withSteps` (the default) each line is handed over and stored carrying its step
  /// (`{"step":N,…`), as every line of versions 1 and 2 did and a reader accepts on any line;
  /// without it, as stored (a line that follows its previous step's starts `{"action":`).
  package func editChunkLines(
    firstStep: Int, withSteps: Bool = true, _ edit: (inout [String]) throws -> Void
  ) throws {
    let bytes = try chunkBytes(firstStep: firstStep)
    var lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    if lines.last == "" { lines.removeLast() }
    if withSteps { lines = Self.withSteps(lines) }
    try edit(&lines)
    try replaceChunk(firstStep: firstStep, with: Array(lines.map { $0 + "\n" }.joined().utf8))
  }

  /// The lines with the step each leaves out written in (the previous line's + 1).
  static func withSteps(_ lines: [String]) -> [String] {
    var previous = -1
    return lines.map { line in
      let prefix = "{\"step\":"
      if line.hasPrefix(prefix),
        let step = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
      {
        previous = step
        return line
      }
      guard line.hasPrefix("{\"action\":") else { return line }
      previous += 1
      return prefix + "\(previous)," + line.dropFirst()
    }
  }

  /// The decompressed bytes of the keyframe at `step`.
  package func keyframeBytes(step: Int) throws -> [UInt8] {
    try payload("SELECT data FROM keyframes WHERE step = ?", key: step)
  }

  /// Stores `bytes` as the keyframe's payload, in a valid LZ4 frame (`raw_size` as for chunks).
  package func replaceKeyframe(step: Int, with bytes: [UInt8], rawSize: Int? = nil) throws {
    try run(
      "UPDATE keyframes SET data = ?, raw_size = ? WHERE step = ?",
      [try LZ4Frame.compress(bytes), Int64(rawSize ?? bytes.count), Int64(step)])
  }

  private func payload(_ sql: String, key: Int) throws -> [UInt8] {
    let statement = try database.prepare(sql)
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    guard try statement.step() else { throw NoSuchRow(sql: sql, key: key) }
    return try LZ4Frame.decompress(statement.blob(at: 0), limit: 1 << 30)
  }

  /// Closes the file now (also done when the editor goes away).
  package func close() {
    database.close()
  }

  package struct NoSuchRow: Error, CustomStringConvertible {
    package var sql: String
    package var key: Int
    package var description: String { "no row for \(key) in \(sql)" }
  }

  package struct Unsupported: Error, CustomStringConvertible {
    package var value: String
    package var description: String { "cannot bind \(value)" }
  }
}

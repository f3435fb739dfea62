import Foundation

/// Why a trace could not be read or written: what went wrong, in which file, at which step or
/// chunk. Its description is one line a person can act on.
///
/// ```swift
/// print(error)
/// // t.rewind: step 2100 (chunk 2048): payload chunk is damaged: LZ4 frame content checksum
/// // mismatch   (one line; chunks are named by their first step)
/// ```
public struct TraceError: Error, CustomStringConvertible, Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// No file at the path.
    case fileNotFound
    /// The path is a directory.
    case isDirectory
    /// The file is not a SQLite database.
    case notSQLite
    /// A SQLite database, but not a Rewind trace (detail says why).
    case notATrace(String)
    /// A trace written in a format version this reader does not know.
    case unsupportedVersion(String)
    /// A table of the schema is missing.
    case missingTable(String)
    /// The file is shorter than its header says.
    case truncated(expectedBytes: Int, actualBytes: Int)
    /// SQLite found the database damaged (its message).
    case corruptDatabase(String)
    /// A `meta` row is missing or unreadable.
    case corruptMetadata(String)
    /// A step index row holds an impossible value.
    case corruptIndex(String)
    /// A payload chunk fails to decompress or parse.
    case corruptChunk(String)
    /// A keyframe fails to decompress or parse.
    case corruptKeyframe(String)
    /// No keyframe at or before the step.
    case missingKeyframe
    /// The step has no index row (it was dropped, or the index is damaged).
    case missingStep
    /// Steps `first…last` have no index rows, and no gap records them as dropped: rows were
    /// deleted from the index.
    case missingIndexRows(first: Int, last: Int)
    /// A row of the `gaps` table holds an impossible value or contradicts the index.
    case corruptGap(String)
    /// A table of the schema lacks a column the reader needs.
    case missingColumn(table: String, column: String)
    /// The trace has a write-ahead log but no shared-memory file beside it, and the directory
    /// is read-only, so SQLite cannot create one: the log's commits cannot be read there.
    case logNeedsWritableDirectory(log: String, sharedMemory: String)
    /// The step is outside `0…lastStep`.
    case stepOutOfRange(lastStep: Int)
    /// The reconstructed state does not hash to the hash stored for the step.
    case hashMismatch(expected: UInt64, actual: UInt64)
    /// The reducer tree JSON is unreadable.
    case corruptTree(String)
    /// Any other SQLite failure (I/O, disk full, locked) with SQLite's own description.
    case database(String)
    /// The writer was used wrongly (closed, steps out of order).
    case invalidWrite(String)
    /// A payload larger than a reader would accept.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The trace file was removed or replaced while it was being written.
    case fileRemoved
    /// The trace's last commits are in a write-ahead log file that is not beside it.
    case missingLog(String)
  }

  public var kind: Kind
  /// The trace file's path.
  public var file: String
  public var step: Int?
  public var chunk: Int?
  /// What the storage layer reported (SQLite's result code, its message and the SQL that was
  /// running), for debugging: never part of `description`, which a person reads.
  public var detail: String?

  public init(
    _ kind: Kind, file: String, step: Int? = nil, chunk: Int? = nil, detail: String? = nil
  ) {
    self.kind = kind
    self.file = file
    self.step = step
    self.chunk = chunk
    self.detail = detail
  }

  /// A SQLite failure in words a person can act on; the SQL stays in `detail`.
  package init(_ error: SQLiteError, file: String, step: Int? = nil, chunk: Int? = nil) {
    let kind: Kind = error.isCorruption ? .corruptDatabase("") : .database(error.userMessage)
    self.init(kind, file: file, step: step, chunk: chunk, detail: error.description)
  }

  /// One line: messages that carry text from elsewhere (SQLite, JSON) lose their newlines.
  public var description: String {
    "\(file): \(message)"
  }

  /// The description without the file: what went wrong, at which step or chunk.
  public var message: String {
    locatedMessage.replacingOccurrences(of: "\n", with: " ")
  }

  private var location: String {
    switch (step, chunk) {
    case (let step?, let chunk?): "step \(step) (chunk \(chunk)): "
    case (let step?, nil): "step \(step): "
    case (nil, let chunk?): "chunk \(chunk): "
    case (nil, nil): ""
    }
  }

  private var locatedMessage: String {
    switch kind {
    case .fileNotFound: "no such file"
    case .isDirectory: "is a directory, not a trace file"
    case .notSQLite: "not a SQLite database, so not a Rewind trace"
    case .notATrace(let detail): "a SQLite database but not a Rewind trace (\(detail))"
    case .unsupportedVersion(let version):
      "trace format version \(version) is not supported (this reader reads versions "
        + TraceSchema.readableVersions.dropLast().map(String.init).joined(separator: ", ")
        + " and \(TraceSchema.readableVersions.last ?? 0))"
    case .missingTable(let table): "the trace has no '\(table)' table"
    case .truncated(let expected, let actual):
      "file is truncated: \(actual) bytes, the header says \(expected)"
    case .corruptDatabase(let message):
      location + "the database file is damaged" + (message.isEmpty ? "" : " (\(message))")
    case .corruptMetadata(let message): "metadata is damaged: \(message)"
    case .corruptIndex(let message): location + "index row is damaged: \(message)"
    case .corruptChunk(let message): location + "payload chunk is damaged: \(message)"
    case .corruptKeyframe(let message): location + "keyframe is damaged: \(message)"
    case .missingKeyframe: location + "no keyframe at or before this step"
    case .missingStep: location + "step is not in the trace"
    case .missingIndexRows(let first, let last):
      (first == last ? "step \(first) is" : "steps \(first)…\(last) are")
        + " missing from the index, and no gap records \(first == last ? "it" : "them")"
        + " as dropped (rows were deleted)"
    case .corruptGap(let message): location + "gap record is damaged: " + message
    case .missingColumn(let table, let column):
      "the '\(table)' table has no '\(column)' column"
    case .logNeedsWritableDirectory(let log, let sharedMemory):
      "the trace's write-ahead log (\(log)) needs a \(sharedMemory) file beside it, and this "
        + "read-only directory cannot hold one: copy the trace and \(log) together to a "
        + "writable directory and read the copy"
    case .stepOutOfRange(let lastStep):
      location + "out of range (the trace has steps 0…\(lastStep))"
    case .hashMismatch(let expected, let actual):
      location + "state hash mismatch: recorded \(hex(expected)), reconstructed \(hex(actual))"
    case .corruptTree(let message): "reducer tree is damaged: \(message)"
    case .database(let message): location + message
    case .invalidWrite(let message): location + message
    case .payloadTooLarge(let bytes, let limit):
      location + "payload of \(bytes) bytes exceeds the limit of \(limit) bytes"
    case .fileRemoved:
      location + "the trace file was removed or replaced while it was being written"
    case .missingLog(let log):
      "the trace was not closed by its writer and its last commits are in '\(log)', which "
        + "is not beside it (copy the -wal file with the trace)"
    }
  }

  private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
  }
}

import CSQLite

/// An error reported by SQLite: its result code, its message and the SQL that was running.
///
/// ```swift
/// print(error)
/// // SQLite error 19: UNIQUE constraint failed: steps.step - while executing 'INSERT INTO …'
/// ```
package struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The extended result code (`sqlite3_extended_errcode`), e.g. 2067 for a UNIQUE violation.
  package var extendedCode: Int32
  /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19).
  package var code: Int32 { extendedCode & 0xFF }
  package var message: String
  package var sql: String?

  package init(code: Int32, message: String, sql: String? = nil) {
    self.extendedCode = code
    self.message = message
    self.sql = sql
  }

  /// Reads the current error of a connection.
  init(connection: OpaquePointer?, code: Int32, sql: String?) {
    let message: String
    if let connection, let text = sqlite3_errmsg(connection) {
      message = String(cString: text)
    } else if let text = sqlite3_errstr(code) {
      message = String(cString: text)
    } else {
      message = "unknown error"
    }
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    self.init(code: extended & 0xFF == code & 0xFF ? extended : code, message: message, sql: sql)
  }

  package var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " - while executing '\(sql)'" }
    return text
  }

  /// What went wrong in words for the person reading a trace: no result code, no SQL and none
  /// of SQLite's own vocabulary (`description` keeps all of that for debugging).
  ///
  /// ```swift
  /// SQLiteError(code: SQLITE_ERROR, message: "no such column: wall").userMessage
  /// // "a table lacks the column 'wall' this reader needs"
  /// ```
  package var userMessage: String {
    switch code {
    case SQLITE_ERROR:
      if let name = quotedSuffix(after: "no such column: ") {
        return "a table lacks the column '\(name)' this reader needs"
      }
      if let name = quotedSuffix(after: "no such table: ") {
        return "the trace has no '\(name)' table"
      }
      return "the trace's tables are not laid out as this reader expects"
    case SQLITE_BUSY, SQLITE_LOCKED: return "another process holds a lock on the trace"
    case SQLITE_NOMEM: return "out of memory while reading the trace"
    case SQLITE_READONLY: return "the trace cannot be written (read-only)"
    case SQLITE_IOERR: return "the file could not be read or written (input/output error)"
    case SQLITE_CORRUPT: return "the database file is damaged"
    case SQLITE_NOTADB: return "not a SQLite database"
    case SQLITE_FULL: return "the disk is full"
    case SQLITE_CANTOPEN: return "the file (or its -wal/-shm companion) cannot be opened"
    case SQLITE_PERM, SQLITE_AUTH: return "permission denied"
    case SQLITE_TOOBIG: return "a value in the trace is too large to read"
    case SQLITE_CONSTRAINT, SQLITE_MISMATCH: return "a value does not fit the trace's schema"
    default: return "the database could not be read"
    }
  }

  /// The rest of the message after `prefix`, cut short and stripped of control characters (it
  /// names a column or table of a file that may be hostile).
  private func quotedSuffix(after prefix: String) -> String? {
    guard message.hasPrefix(prefix) else { return nil }
    var name = ""
    for scalar in message.dropFirst(prefix.count).unicodeScalars.prefix(64)
    where scalar.value >= 0x20 && scalar.value != 0x7F {
      name.unicodeScalars.append(scalar)
    }
    return name
  }

  /// Whether the database file is damaged or is not a database at all.
  package var isCorruption: Bool {
    code == SQLITE_CORRUPT || code == SQLITE_NOTADB
  }

  /// Whether the file is not a database (`SQLITE_NOTADB`).
  package var isNotADatabase: Bool { code == SQLITE_NOTADB }

  /// Whether another connection holds a lock (`SQLITE_BUSY` / `SQLITE_LOCKED`).
  package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

  /// Whether SQLite could not open or read a file it needs (the database, or its `-wal` and
  /// `-shm` companions).
  package var isCantOpen: Bool { code == SQLITE_CANTOPEN || code == SQLITE_IOERR }
}

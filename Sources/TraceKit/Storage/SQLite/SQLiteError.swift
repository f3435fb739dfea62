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

  /// Whether the database file is damaged or is not a database at all.
  package var isCorruption: Bool {
    code == SQLITE_CORRUPT || code == SQLITE_NOTADB
  }

  /// Whether the file is not a database (`SQLITE_NOTADB`).
  package var isNotADatabase: Bool { code == SQLITE_NOTADB }

  /// Whether another connection holds a lock (`SQLITE_BUSY` / `SQLITE_LOCKED`).
  package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
}

import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One SQLite connection. The class owns the C handle: `deinit` closes it, and a failed open
/// closes the half-made handle before throwing.
///
/// ```swift
/// let db = try SQLiteConnection(path: "t.rewind", mode: .create)
/// try db.execute("CREATE TABLE t (x INTEGER)")
/// let insert = try db.prepare("INSERT INTO t (x) VALUES (?)")
/// try db.transaction {
///   try insert.bind(42, at: 1)
///   try insert.run()
/// }
/// ```
///
/// A connection is used by one thread at a time (it is opened with `SQLITE_OPEN_NOMUTEX`).
package final class SQLiteConnection {
  package enum Mode: Sendable {
    case readOnly
    /// Read-only, the file taken as it is on disk: no write-ahead log and no locks (SQLite's
    /// `immutable`), for a file that nothing writes any more.
    case readOnlyImmutable
    case readWrite
    /// Read-write, creating the file if it does not exist.
    case create
    /// Read-write on a file this call creates, owner-only (mode 0600 whatever the umask; the
    /// `-wal` and `-shm` files SQLite makes beside it take the same mode); fails when a file
    /// exists at the path.
    case createNew
  }

  package let path: String
  let handle: OpaquePointer
  private var isClosed = false
  /// SQLite's descriptor of the database file, found right after opening (while the path
  /// still names the file); see `SQLiteConnection+File.swift`.
  private(set) var databaseDescriptor: Int32?

  /// Turns SQLite's memory statistics off, once, before the process's first connection
  /// initializes SQLite (which fixes its configuration): with them on, every allocation and
  /// free SQLite makes takes a process-wide mutex and updates counters that nothing here reads
  /// (about 170 instructions an allocation; a recording's trace stage makes about 8 a step).
  /// Only this folder calls SQLite, so no connection can be opened before this runs.
  private static let configured: Bool = rewind_sqlite3_config_no_memstatus() == SQLITE_OK

  package init(path: String, mode: Mode) throws(SQLiteError) {
    _ = Self.configured
    self.path = path
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    var name = path
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readOnlyImmutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      name = Self.immutableURI(path)
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .createNew:
      try Self.createOwnerOnlyFile(path)
      flags |= SQLITE_OPEN_READWRITE
    }
    var pointer: OpaquePointer?
    let code = sqlite3_open_v2(name, &pointer, flags, nil)
    guard code == SQLITE_OK, let pointer else {
      let error = SQLiteError(connection: pointer, code: code, sql: nil)
      // A failed open may still hand back a handle that must be closed.
      if let pointer { sqlite3_close_v2(pointer) }
      if mode == .createNew { unlink(path) }
      throw error
    }
    handle = pointer
    databaseDescriptor = findDatabaseDescriptor()
  }


  /// A `file:` URI naming `path` with `immutable=1`: the path percent-encoded where a URI
  /// would read it otherwise.
  static func immutableURI(_ path: String) -> String {
    var uri = "file:"
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...:
        uri += "%" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
      default:
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return uri + "?immutable=1"
  }

  deinit {
    if !isClosed {
      _ = unlockFile()
      sqlite3_close_v2(handle)
    }
  }

  /// Closes the connection now rather than at `deinit` (the last connection to a WAL database
  /// removes the `-wal` and `-shm` files). Statements still alive are finalized by their own
  /// `deinit`; SQLite frees the connection after the last of them. Nothing may be run on the
  /// connection afterwards.
  package func close() {
    guard !isClosed else { return }
    isClosed = true
    _ = unlockFile()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that return no rows.
  package func execute(_ sql: String) throws(SQLiteError) {
    var errorText: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &errorText)
    if code != SQLITE_OK {
      let message = errorText.map { String(cString: $0) }
      sqlite3_free(errorText)
      var error = SQLiteError(connection: handle, code: code, sql: sql)
      if let message { error.message = message }
      throw error
    }
  }

  /// Compiles a statement; keep it to run it many times.
  package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    try SQLiteStatement(connection: self, sql: sql)
  }

  /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
  package func transaction<T, E: Error>(
    _ kind: TransactionKind = .deferred,
    _ body: () throws(E) -> T
  ) throws(TransactionError<E>) -> T {
    do {
      try execute(kind.beginSQL)
    } catch {
      throw .sqlite(error)
    }
    let value: T
    do {
      value = try body()
    } catch {
      try? execute("ROLLBACK")
      throw .body(error)
    }
    do {
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw .sqlite(error)
    }
    return value
  }

  package enum TransactionKind: Sendable {
    case deferred, immediate

    var beginSQL: String {
      switch self {
      case .deferred: "BEGIN DEFERRED"
      case .immediate: "BEGIN IMMEDIATE"
      }
    }
  }

  /// Why a transaction failed: SQLite itself, or the body.
  package enum TransactionError<E: Error>: Error {
    case sqlite(SQLiteError)
    case body(E)
  }

  /// How long a statement waits for another connection's lock before failing with
  /// `SQLITE_BUSY`.
  package func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Whether the connection is inside an explicit transaction.
  package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  package var changes: Int { Int(sqlite3_changes(handle)) }

  package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Runs a query that returns one integer (e.g. a `PRAGMA` or a `COUNT`); nil when the
  /// query returns no row or NULL.
  package func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
    let statement = try prepare(sql)
    defer { statement.reset() }
    guard try statement.step(), !statement.isNull(at: 0) else { return nil }
    return statement.int64(at: 0)
  }

  /// Runs a query that returns one text value; nil when it returns no row or NULL.
  package func scalarText(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try prepare(sql)
    defer { statement.reset() }
    guard try statement.step(), !statement.isNull(at: 0) else { return nil }
    return statement.text(at: 0)
  }

  /// The SQLite library version, e.g. "3.40.1".
  package static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

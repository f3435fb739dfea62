import CSQLite
import Foundation

// SQLITE_TRANSIENT is a macro Swift does not import: the value -1 cast to a destructor tells
// SQLite to copy the bound bytes before the bind call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement. The class owns the C handle (`deinit` finalizes it) and keeps its
/// connection alive. Parameter and column indices follow SQLite: binds start at 1, columns at 0.
///
/// ```swift
/// let select = try db.prepare("SELECT step, action_path FROM steps WHERE step >= ?")
/// try select.bind(Int64(10), at: 1)
/// while try select.step() {
///   print(select.int64(at: 0), select.text(at: 1))  // 10 counter.increment
/// }
/// ```
package final class SQLiteStatement {
  package let sql: String
  let handle: OpaquePointer
  private let connection: SQLiteConnection
  /// The texts bound in place since the bindings were last cleared. A statement is used by
  /// one thread at a time and no call re-enters another: no dynamic exclusivity checks (two
  /// a text bound, about 80 instructions).
  @exclusivity(unchecked) private var arena = SQLiteTextArena()
  /// What the `remembering` binds bound, by parameter index (from 1), while no other bind at
  /// that index and no `reset` replaced it; allocated when one of them is first used, with
  /// `rememberedCount` entries. A buffer, not an array: an array's checks cost a remembered
  /// bind about 60 instructions, most of what skipping SQLite's bind saves.
  @exclusivity(unchecked) private var remembered: UnsafeMutablePointer<Remembered>?
  @exclusivity(unchecked) private var rememberedCount = 0

  /// A parameter's value as a `remembering` bind bound it: an integer, a NULL, or a static
  /// text (by its address: the same address is the same bytes, which never move or change).
  private struct Remembered {
    enum Kind: UInt8 {
      case none, integer, null, staticText
    }

    var kind = Kind.none
    var value: Int64 = 0
  }

  init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
    var pointer: OpaquePointer?
    let code = sqlite3_prepare_v3(
      connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
    guard code == SQLITE_OK, let pointer else {
      let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
      if let pointer { sqlite3_finalize(pointer) }
      throw error
    }
    self.sql = sql
    self.handle = pointer
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
    arena.release()
    remembered?.deallocate()
  }

  private func check(_ code: Int32) throws(SQLiteError) {
    if code != SQLITE_OK {
      throw SQLiteError(connection: connection.handle, code: code, sql: sql)
    }
  }

  // MARK: Binding

  package func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
    forget(index)
    try check(sqlite3_bind_int64(handle, index, value))
  }

  package func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
    try bind(Int64(value), at: index)
  }

  /// Binds the bit pattern of an unsigned value (SQLite integers are signed 64-bit).
  package func bind(bitPattern value: UInt64, at index: Int32) throws(SQLiteError) {
    try bind(Int64(bitPattern: value), at: index)
  }

  /// `bind(_:at:)`, with nothing to do when this method bound `value` at `index` last and
  /// no other bind or `reset` came since: a multi-row insert run with `runRebindingAll` gives
  /// a parameter the value it held the run before for most of a step row's columns (its
  /// origin, its action and path set, which alternate with the steps), and SQLite's bind is
  /// about 85 instructions.
  package func bind(remembering value: Int64, at index: Int32) throws(SQLiteError) {
    guard let entry = rememberedEntry(at: index) else {
      // Out of range: SQLite reports it.
      try check(sqlite3_bind_int64(handle, index, value))
      return
    }
    if entry.pointee.kind == .integer && entry.pointee.value == value { return }
    entry.pointee.kind = .none
    try check(sqlite3_bind_int64(handle, index, value))
    entry.pointee = Remembered(kind: .integer, value: value)
  }

  /// `bindNull(at:)`, with nothing to do when a `remembering` bind left NULL at `index` (an
  /// `effects` row has several NULL columns, most often the same ones as the row before).
  package func bindNull(rememberingAt index: Int32) throws(SQLiteError) {
    guard let entry = rememberedEntry(at: index) else {
      try check(sqlite3_bind_null(handle, index))
      return
    }
    if entry.pointee.kind == .null { return }
    entry.pointee.kind = .none
    try check(sqlite3_bind_null(handle, index))
    entry.pointee = Remembered(kind: .null)
  }

  /// Binds a static text where it is (SQLite reads the bytes in place: they never move or
  /// change), with nothing to do when this method bound the same text at `index` last: a
  /// column of a few fixed values (an effect's `outcome`, its `kind`) mostly holds the value
  /// the same row of the statement's last run held. The text is UTF-8 without NUL.
  package func bind(remembering text: StaticString, at index: Int32) throws(SQLiteError) {
    let address = Int64(Int(bitPattern: text.utf8Start))
    let entry = rememberedEntry(at: index)
    if let entry, entry.pointee.kind == .staticText && entry.pointee.value == address { return }
    entry?.pointee.kind = .none
    try check(
      sqlite3_bind_text(
        handle, index, UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self),
        Int32(clamping: text.utf8CodeUnitCount), nil))
    entry?.pointee = Remembered(kind: .staticText, value: address)
  }

  /// What the `remembering` binds know of `index`; nil when it is out of range.
  @inline(__always)
  private func rememberedEntry(at index: Int32) -> UnsafeMutablePointer<Remembered>? {
    let position = Int(index)
    let entries = remembered ?? rememberEntries()
    guard position >= 0, position < rememberedCount else { return nil }
    return entries + position
  }

  private func rememberEntries() -> UnsafeMutablePointer<Remembered> {
    rememberedCount = Int(sqlite3_bind_parameter_count(handle)) + 1
    let entries = UnsafeMutablePointer<Remembered>.allocate(capacity: rememberedCount)
    entries.initialize(repeating: Remembered(), count: rememberedCount)
    remembered = entries
    return entries
  }

  /// Drops what the `remembering` binds know of `index`, which another bind replaces.
  private func forget(_ index: Int32) {
    let position = Int(index)
    if let remembered, position >= 0, position < rememberedCount {
      remembered[position].kind = .none
    }
  }

  package func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
    forget(index)
    try check(sqlite3_bind_double(handle, index, value))
  }

  package func bind(_ value: String, at index: Int32) throws(SQLiteError) {
    forget(index)
    var value = value
    let code = value.withUTF8 { utf8 in
      sqlite3_bind_text(
        handle, index, UnsafeRawPointer(utf8.baseAddress)?.assumingMemoryBound(to: CChar.self),
        Int32(clamping: utf8.count), transient)
    }
    try check(code)
  }

  /// Binds a text that SQLite reads in place (a copy in the statement's arena, kept until the
  /// bindings are cleared) instead of copying it into an allocation of its own: for statements
  /// that bind many texts a run, and are `run()` (which clears the bindings) after each.
  package func bind(borrowing value: String, at index: Int32) throws(SQLiteError) {
    // The string's own bytes where it has them (native and small strings): `withUTF8` needs a
    // mutable copy, a retain, a release and a uniqueness check more.
    let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
      (arena.copy(UnsafeRawBufferPointer(utf8)), utf8.count)
    }
    if let (text, count) = copied {
      try bindStatic(text, count: count, at: index)
      return
    }
    var value = value
    let (text, count) = value.withUTF8 { utf8 in
      (arena.copy(UnsafeRawBufferPointer(utf8)), utf8.count)
    }
    try bindStatic(text, count: count, at: index)
  }

  /// A NULL is bound as `bindNull(rememberingAt:)` binds it.
  package func bind(borrowing value: String?, at index: Int32) throws(SQLiteError) {
    if let value {
      try bind(borrowing: value, at: index)
    } else {
      try bindNull(rememberingAt: index)
    }
  }

  /// `bind(borrowing:)` for a UUID's text (`UUIDText`), written straight into the arena.
  package func bind(uuidText id: UUID, at index: Int32) throws(SQLiteError) {
    let text = arena.reserve(UUIDText.length)
    UUIDText.write(id, to: text)
    try bindStatic(text, count: UUIDText.length, at: index)
  }

  private func bindStatic(_ text: UnsafeMutableRawPointer, count: Int, at index: Int32)
    throws(SQLiteError)
  {
    forget(index)
    // A nil destructor is SQLITE_STATIC: the bytes stay valid until the bindings are cleared.
    try check(
      sqlite3_bind_text(
        handle, index, text.assumingMemoryBound(to: CChar.self), Int32(clamping: count), nil))
  }

  /// Binds UTF-8 bytes as TEXT without making a `String` first.
  package func bind(utf8 bytes: [UInt8], at index: Int32) throws(SQLiteError) {
    forget(index)
    let code = bytes.withUnsafeBytes { buffer in
      sqlite3_bind_text64(
        handle, index,
        (buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1))?
          .assumingMemoryBound(to: CChar.self),
        sqlite3_uint64(buffer.count), transient, UInt8(SQLITE_UTF8))
    }
    try check(code)
  }

  package func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
    if let value { try bind(value, at: index) } else { try bindNull(at: index) }
  }

  /// A NULL is bound as `bindNull(rememberingAt:)` binds it.
  package func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
    if let value { try bind(value, at: index) } else { try bindNull(rememberingAt: index) }
  }

  /// Binds bytes as a BLOB (an empty array binds a zero-length BLOB, not NULL).
  package func bind(blob bytes: [UInt8], at index: Int32) throws(SQLiteError) {
    forget(index)
    let code = bytes.withUnsafeBytes { buffer in
      sqlite3_bind_blob64(
        handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
        sqlite3_uint64(buffer.count), transient)
    }
    try check(code)
  }

  package func bindNull(at index: Int32) throws(SQLiteError) {
    forget(index)
    try check(sqlite3_bind_null(handle, index))
  }

  /// Resets the statement so it can run again, and clears its bindings.
  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    arena.reset()
    if let remembered {
      for position in 0..<rememberedCount { remembered[position].kind = .none }
    }
  }

  // MARK: Running

  /// Advances to the next row: true when a row is available, false when done.
  package func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW:
      return true
    case SQLITE_DONE:
      return false
    default:
      let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Resets the statement (keeping its bindings). A query that was not stepped to its end
  /// keeps its read transaction open until it is reset, so every query is reset after use.
  package func resetKeepingBindings() {
    sqlite3_reset(handle)
  }

  /// Runs a statement that returns no rows, then resets it for the next use.
  package func run() throws(SQLiteError) {
    defer { reset() }
    while try step() {}
  }

  /// `run()` for a statement whose every parameter is bound again before it runs again (the
  /// writer's multi-row inserts): its bindings are not cleared to NULL first, which for 32
  /// `steps` rows is 256 parameters set and released. The texts bound in place are let go
  /// all the same; the bindings that pointed at them are replaced before SQLite reads them.
  package func runRebindingAll() throws(SQLiteError) {
    defer {
      sqlite3_reset(handle)
      arena.reset()
    }
    while try step() {}
  }

  // MARK: Columns

  package var columnCount: Int32 { sqlite3_column_count(handle) }

  package func isNull(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// Whether the column holds an integer (not text, real, blob or NULL).
  package func isInteger(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_INTEGER
  }

  /// Whether the column holds a floating-point value.
  package func isReal(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_FLOAT
  }

  /// Whether the column holds a BLOB.
  package func isBlob(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_BLOB
  }

  /// The size in bytes of the column's text or blob.
  package func byteCount(at column: Int32) -> Int {
    Int(sqlite3_column_bytes(handle, column))
  }

  /// The column's integer, or nil when it holds anything else: one look-up of the column
  /// (`isInteger` then `int64` look it up twice, a measurable part of reading a row).
  package func integer(at column: Int32) -> Int64? {
    guard let value = sqlite3_column_value(handle, column),
      sqlite3_value_type(value) == SQLITE_INTEGER
    else { return nil }
    return sqlite3_value_int64(value)
  }

  package func int64(at column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  package func double(at column: Int32) -> Double {
    sqlite3_column_double(handle, column)
  }

  /// The column as text ("" for NULL).
  package func text(at column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    let buffer = UnsafeBufferPointer(start: pointer, count: count)
    return String(decoding: buffer, as: UTF8.self)
  }

  package func optionalText(at column: Int32) -> String? {
    isNull(at: column) ? nil : text(at: column)
  }

  package func optionalInt64(at column: Int32) -> Int64? {
    isNull(at: column) ? nil : int64(at: column)
  }

  /// Lends the column's bytes without copying them; valid only inside `body`.
  package func withBlob<T, E: Error>(
    at column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T
  ) throws(E) -> T {
    let pointer = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    guard let pointer, count > 0 else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// The column as bytes (empty for NULL).
  package func blob(at column: Int32) -> [UInt8] {
    withBlob(at: column) { Array($0) }
  }
}

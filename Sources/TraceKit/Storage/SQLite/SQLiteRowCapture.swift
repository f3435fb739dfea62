import CSQLite

/// A SQL function, `rewind_row(…)`, that copies the type and the value of each of its
/// arguments into a buffer of rows, and is true only when the buffer is full. A scan that
/// puts it in its `WHERE` (`filter(_:)`) instead of selecting the columns hands its rows over
/// in one function call each, and returns a row only once a buffer's worth: reading each
/// column of a result costs a `sqlite3_column_value` (about 50 instructions with its mutex
/// calls), and returning each row from `sqlite3_step` about 190 more.
///
/// The caller reads the rows held after each `step()`, whether it returned a row or the
/// end, then `clear()`s the buffer. A plan that calls the function for rows before it
/// returns them (a sort) is noticed, not trusted: the function is then called on a full
/// buffer (`overran`), or on fewer rows than a buffer holds, which the caller finds out of
/// order (see `TraceReader.forEachEntry`).
///
/// ```swift
/// let capture = try SQLiteRowCapture(connection: db, columns: 2, rows: 64)
/// let select = try db.prepare(
///   "SELECT 0 FROM steps WHERE \(capture.filter(["step", "mono_ns"])) ORDER BY step")
/// var more = true
/// while more {
///   more = try select.step()
///   guard !capture.overran else { break }  // read the columns instead
///   for index in 0..<capture.count {
///     print(capture.row(index).integer(at: 0), capture.row(index).integer(at: 1))
///   }  // Optional(0) Optional(1200), …
///   capture.clear()
/// }
/// ```
package final class SQLiteRowCapture {
  /// The function's name on the connection.
  package static let name = "rewind_row"

  /// How many arguments the function takes.
  package let columns: Int
  /// Word 0: the rows held; word 1: nonzero once a call found the buffer full; word 2: the
  /// capacity; then each row: its arguments' type codes, then their values (an integer, or
  /// a double's bits). Freed by SQLite when the connection closes (the function's
  /// destructor).
  private let words: UnsafeMutablePointer<Int64>
  /// Set while a query reads through the buffer: a query inside another (nested) reads its
  /// columns instead.
  @exclusivity(unchecked) package var isInUse = false

  private static let header = 3

  /// Registers the function on `connection`, taking `columns` arguments, with a buffer of
  /// `rows` rows. Only a query of the connection's own can call it (`SQLITE_DIRECTONLY`: no
  /// view or trigger a file holds).
  package init(connection: SQLiteConnection, columns: Int, rows: Int) throws(SQLiteError) {
    precondition(columns > 0 && rows > 0, "a row capture holds at least one column and row")
    self.columns = columns
    let count = Self.header + rows * 2 * columns
    let words = UnsafeMutablePointer<Int64>.allocate(capacity: count)
    words.initialize(repeating: 0, count: count)
    words[2] = Int64(rows)
    // On failure SQLite calls the destructor itself.
    let code = sqlite3_create_function_v2(
      connection.handle, Self.name, Int32(columns), SQLITE_UTF8 | SQLITE_DIRECTONLY, words,
      { context, count, arguments in SQLiteRowCapture.capture(context, count, arguments) },
      nil, nil, { pointer in pointer?.deallocate() })
    guard code == SQLITE_OK else {
      throw SQLiteError(connection: connection.handle, code: code, sql: Self.name)
    }
    self.words = words
  }

  /// The function called on `columns` (SQL expressions, as many as `columns`), as a `WHERE`
  /// term: true for the row that fills the buffer. A row holds them in this order.
  ///
  /// They are passed last first: SQLite finds a column by reading the record's header up to
  /// it, a step further at each column asked for in order, and all at once when the last is
  /// asked for first (about 240 instructions fewer a row of eight columns).
  package func filter(_ columns: [String]) -> String {
    "\(Self.name)(\(columns.reversed().joined(separator: ", ")))"
  }

  /// The rows held since the last `clear()`, in the order the function was called.
  @inline(__always)
  package var count: Int { Int(words[0]) }

  /// Whether the function was called on a full buffer since the last `clear()` (the row
  /// it was called for is in no buffer).
  @inline(__always)
  package var overran: Bool { words[1] != 0 }

  /// Empties the buffer, once its rows are read.
  @inline(__always)
  package func clear() {
    words[0] = 0
    words[1] = 0
  }

  /// The row held at `index` (below `count`).
  @inline(__always)
  package func row(_ index: Int) -> Row {
    Row(types: UnsafePointer(words + (Self.header &+ index &* 2 &* columns)), columns: columns)
  }

  /// One row held: its arguments' types and values.
  package struct Row {
    let types: UnsafePointer<Int64>
    let columns: Int

    /// The argument's integer, or nil when it holds anything else (`SQLiteStatement.integer`).
    @inline(__always)
    package func integer(at index: Int32) -> Int64? {
      let index = Int(index)
      return types[index] == Int64(SQLITE_INTEGER) ? types[columns &+ index] : nil
    }

    /// The argument's floating-point value, or nil when it holds anything else.
    @inline(__always)
    package func real(at index: Int32) -> Double? {
      let index = Int(index)
      return types[index] == Int64(SQLITE_FLOAT)
        ? Double(bitPattern: UInt64(bitPattern: types[columns &+ index])) : nil
    }
  }

  private static func capture(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
  ) {
    guard let words = sqlite3_user_data(context)?.assumingMemoryBound(to: Int64.self),
      let arguments
    else { return }
    let held = words[0]
    guard held < words[2] else {
      words[1] = 1
      sqlite3_result_int(context, 1)
      return
    }
    let count = Int(count)
    let types = words + (header &+ Int(held) &* 2 &* count)
    let values = types + count
    // The arguments come last column first (`filter`).
    for index in 0..<count {
      let value = arguments[count &- 1 &- index]
      let type = sqlite3_value_type(value)
      types[index] = Int64(type)
      values[index] =
        switch type {
        case SQLITE_INTEGER: sqlite3_value_int64(value)
        case SQLITE_FLOAT: Int64(bitPattern: sqlite3_value_double(value).bitPattern)
        default: 0
        }
    }
    words[0] = held &+ 1
    // No result is NULL, false in a `WHERE`: only the row that fills the buffer is returned.
    if held &+ 1 == words[2] { sqlite3_result_int(context, 1) }
  }
}

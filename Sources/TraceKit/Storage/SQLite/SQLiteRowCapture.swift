import CSQLite

/// A SQL function, `rewind_row(…)`, that copies the type and the value of each of its
/// arguments into a buffer and returns a number it gives no other call. A query that selects
/// `rewind_row(a, b, …)` instead of `a, b, …` hands its row over in one function call, where
/// reading each column of the result costs a `sqlite3_column_value` (about 50 instructions
/// with its mutex calls); the caller reads the buffer after `step()`.
///
/// The buffer holds what the last call saw. `current(of:)` says whether that call is the one
/// whose result the statement's row holds (its number is the row's only column), so a plan
/// that calls the function for rows before it returns them (a sort) is noticed, not trusted.
///
/// ```swift
/// let capture = try SQLiteRowCapture(connection: db, columns: 2)
/// let select = try db.prepare("SELECT \(capture.call("step, mono_ns")) FROM steps")
/// while try select.step() {
///   guard capture.current(of: select) else { break }  // read the columns instead
///   print(capture.integer(at: 0), capture.integer(at: 1))  // Optional(0) Optional(1200)
/// }
/// ```
package final class SQLiteRowCapture {
  /// The function's name on the connection.
  package static let name = "rewind_row"

  /// How many arguments the function takes.
  package let columns: Int
  /// Word 0: the number of the last call; then each argument's type code; then each
  /// argument's value (an integer, or a double's bits). Freed by SQLite when the connection
  /// closes (the function's destructor).
  private let words: UnsafeMutablePointer<Int64>
  /// Set while a query reads through the buffer: a query inside another (nested) reads its
  /// columns instead.
  @exclusivity(unchecked) package var isInUse = false

  /// Registers the function on `connection`, taking `columns` arguments. Only a query of the
  /// connection's own can call it (`SQLITE_DIRECTONLY`: no view or trigger a file holds).
  package init(connection: SQLiteConnection, columns: Int) throws(SQLiteError) {
    self.columns = columns
    let words = UnsafeMutablePointer<Int64>.allocate(capacity: 1 + 2 * columns)
    words.initialize(repeating: 0, count: 1 + 2 * columns)
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

  /// The function called on `arguments` (comma-separated SQL), for a query's result.
  package func call(_ arguments: String) -> String {
    "\(Self.name)(\(arguments))"
  }

  /// Whether the buffer holds the row `statement` stands on (its column 0 is the call's
  /// number).
  @inline(__always)
  package func current(of statement: SQLiteStatement) -> Bool {
    // The numbers start at 1: a column that is not one of them reads as 0 or another number.
    sqlite3_column_int64(statement.handle, 0) == words[0]
  }

  /// The argument's integer, or nil when it holds anything else (`SQLiteStatement.integer`).
  @inline(__always)
  package func integer(at index: Int32) -> Int64? {
    let index = Int(index)
    return words[1 &+ index] == Int64(SQLITE_INTEGER) ? words[1 &+ columns &+ index] : nil
  }

  /// The argument's floating-point value, or nil when it holds anything else.
  @inline(__always)
  package func real(at index: Int32) -> Double? {
    let index = Int(index)
    return words[1 &+ index] == Int64(SQLITE_FLOAT)
      ? Double(bitPattern: UInt64(bitPattern: words[1 &+ columns &+ index])) : nil
  }

  private static func capture(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
  ) {
    guard let words = sqlite3_user_data(context)?.assumingMemoryBound(to: Int64.self),
      let arguments
    else { return }
    let number = words[0] &+ 1
    words[0] = number
    let count = Int(count)
    for index in 0..<count {
      let value = arguments[index]
      let type = sqlite3_value_type(value)
      words[1 + index] = Int64(type)
      words[1 + count + index] =
        switch type {
        case SQLITE_INTEGER: sqlite3_value_int64(value)
        case SQLITE_FLOAT: Int64(bitPattern: sqlite3_value_double(value).bitPattern)
        default: 0
        }
    }
    sqlite3_result_int64(context, number)
  }
}

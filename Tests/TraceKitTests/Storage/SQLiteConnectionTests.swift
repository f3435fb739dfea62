import TestSupport
import XCTest

@testable import TraceKit

final class SQLiteConnectionTests: XCTestCase {
  func testInsertedRowsReadBackWithTypedColumns() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
    try insert.bind(Int64.min, at: 1)
    try insert.bind(2.5, at: 2)
    try insert.bind("héllo", at: 3)
    try insert.bind(blob: [0, 1, 255], at: 4)
    try insert.bind(nil as String?, at: 5)
    try insert.run()
    let select = try db.prepare("SELECT i, d, s, b, n FROM t")
    XCTAssertTrue(try select.step())
    XCTAssertEqual(select.int64(at: 0), Int64.min)
    XCTAssertEqual(select.double(at: 1), 2.5)
    XCTAssertEqual(select.text(at: 2), "héllo")
    XCTAssertEqual(select.blob(at: 3), [0, 1, 255])
    XCTAssertTrue(select.isNull(at: 4))
    XCTAssertNil(select.optionalText(at: 4))
    XCTAssertFalse(try select.step())
  }

  func testUnsignedBitPatternRoundTrips() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (h INTEGER)")
    let insert = try db.prepare("INSERT INTO t VALUES (?)")
    try insert.bind(bitPattern: UInt64.max - 1, at: 1)
    try insert.run()
    XCTAssertEqual(try db.scalarInt("SELECT h FROM t").map { UInt64(bitPattern: $0) },
                   UInt64.max - 1)
  }

  func testConstraintErrorCarriesCodeMessageAndSQL() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE steps (step INTEGER PRIMARY KEY)")
    let insert = try db.prepare("INSERT INTO steps (step) VALUES (?)")
    try insert.bind(1, at: 1)
    try insert.run()
    try insert.bind(1, at: 1)
    do {
      try insert.run()
      XCTFail("expected a constraint error")
    } catch {
      XCTAssertEqual(error.code, 19)
      XCTAssertEqual(
        error.description,
        "SQLite error 19: UNIQUE constraint failed: steps.step"
          + " - while executing 'INSERT INTO steps (step) VALUES (?)'")
    }
  }

  func testPrepareErrorNamesTheSQL() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    XCTAssertThrowsError(try db.prepare("SELECT * FROM nowhere")) { error in
      XCTAssertEqual(
        "\(error)",
        "SQLite error 1: no such table: nowhere - while executing 'SELECT * FROM nowhere'")
    }
  }

  func testOpeningAMissingFileReadOnlyFails() throws {
    let directory = try TemporaryDirectory()
    XCTAssertThrowsError(
      try SQLiteConnection(path: directory.path("missing.db"), mode: .readOnly)
    ) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, 14)  // SQLITE_CANTOPEN
    }
  }

  func testTransactionRollsBackWhenBodyThrows() throws {
    struct Stop: Error {}
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (x INTEGER)")
    let insert = try db.prepare("INSERT INTO t VALUES (1)")
    XCTAssertThrowsError(
      try db.transaction { () throws(Stop) in
        try? insert.run()
        throw Stop()
      })
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t"), 0)
    try db.transaction { () throws(SQLiteError) in try insert.run() }
    XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t"), 1)
  }
}

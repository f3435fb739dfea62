import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Texts bound in place (`bind(borrowing:)`, `bind(uuidText:)`) live in the statement's arena
/// until its bindings are cleared: texts that overflow an arena into the next, larger one keep
/// their bytes, and each run stores exactly what it bound.
final class SQLiteBorrowedTextTests: XCTestCase {
  func testBorrowedTextsAcrossArenasAndRunsAreStoredExactly() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (a TEXT, b TEXT, c TEXT, d TEXT, e TEXT, f TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
    let id = UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!
    // The first arena holds 4,096 bytes: the second and third texts each need a new one.
    // Columns b to f; the second text of the first row needs a second arena, the third a third.
    let rows: [[String?]] = [
      ["", String(repeating: "x", count: 4_000), String(repeating: "é", count: 3_000), nil, "s"],
      ["caf\u{E9}", "cafe\u{301}", "😀", "a\u{0}b", String(repeating: "y", count: 9_000)],
    ]
    for row in rows {
      try insert.bind(uuidText: id, at: 1)
      for (index, text) in row.enumerated() {
        try insert.bind(borrowing: text, at: Int32(index + 2))
      }
      try insert.run()
    }
    let select = try db.prepare(
      """
      SELECT a, iif(b IS NULL, NULL, hex(b)), iif(c IS NULL, NULL, hex(c)),
        iif(d IS NULL, NULL, hex(d)), iif(e IS NULL, NULL, hex(e)),
        iif(f IS NULL, NULL, hex(f)), typeof(b) FROM t ORDER BY rowid
      """)
    for row in rows {
      XCTAssertTrue(try select.step())
      XCTAssertEqual(select.text(at: 0), "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")
      for (index, text) in row.enumerated() {
        let column = Int32(index + 1)
        let hex = text.map { $0.utf8.map { String(format: "%02X", $0) }.joined() }
        XCTAssertEqual(select.isNull(at: column) ? nil : select.text(at: column), hex)
      }
      XCTAssertEqual(select.text(at: 6), "text", "an empty text is a text, not NULL")
    }
    XCTAssertFalse(try select.step())
  }

  /// `runRebindingAll()` keeps the bindings of the run before (not cleared to NULL): each run
  /// that binds every parameter again stores exactly what it bound, texts in place, integers
  /// and NULLs alike.
  func testRunsThatBindEveryParameterAgainStoreWhatTheyBound() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (a TEXT, b INTEGER, c TEXT, d TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)")
    let rows: [(String?, Int64?, String?)] = [
      ("x", 1, String(repeating: "y", count: 5_000)), (nil, nil, nil), ("caf\u{E9}", 3, ""),
      ("z", nil, "w"), ("", -4, nil), ("😀", 5, String(repeating: "v", count: 9_000)),
    ]
    let id = UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!
    for pair in stride(from: 0, to: rows.count, by: 2) {
      for offset in 0..<2 {
        let (a, b, c) = rows[pair + offset]
        let base = Int32(offset * 4)
        try insert.bind(borrowing: a, at: base + 1)
        try insert.bind(b, at: base + 2)
        try insert.bind(borrowing: c, at: base + 3)
        try insert.bind(uuidText: id, at: base + 4)
      }
      try insert.runRebindingAll()
    }
    let select = try db.prepare(
      """
      SELECT a, b, iif(c IS NULL, NULL, length(c) || ':' || substr(c, 1, 3)), d
      FROM t ORDER BY rowid
      """)
    let expected: [(String?, Int64?, String?)] = [
      ("x", 1, "5000:yyy"), (nil, nil, nil), ("caf\u{E9}", 3, "0:"), ("z", nil, "1:w"),
      ("", -4, nil), ("😀", 5, "9000:vvv"),
    ]
    for (a, b, c) in expected {
      XCTAssertTrue(try select.step())
      XCTAssertEqual(select.optionalText(at: 0).map { Array($0.utf8) }, a.map { Array($0.utf8) })
      XCTAssertEqual(select.optionalInt64(at: 1), b)
      XCTAssertEqual(select.optionalText(at: 2), c)
      XCTAssertEqual(select.text(at: 3), "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")
    }
    XCTAssertFalse(try select.step())
  }
}

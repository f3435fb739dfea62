import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The `remembering` binds (an integer, `bindNull(rememberingAt:)`, a static text) skip
/// SQLite's bind only when the parameter still holds that value from one of them: any other
/// bind at the index, and `reset` (which clears the bindings to NULL), make them bind again, so
/// every run stores exactly what its last binds said.
final class SQLiteRememberedIntegerTests: XCTestCase {
  private enum Bound: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
  }

  func testRunsStoreWhatWasLastBoundWhicheverWayItWasBound() throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("a.db"), mode: .create)
    try db.execute("CREATE TABLE t (run INTEGER, a, b, c)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)")
    let values: [Int64] = [0, 1, -1, 2, .max, .min]
    var random = SplitMix(seed: 26)
    // What each parameter holds (index 1 to 8; 1 and 5 are the run's number).
    var holds = [Bound](repeating: .null, count: 9)
    var expected: [[Bound]] = []
    try db.execute("BEGIN")
    for run in 0..<1_000 {
      for index in 1...8 {
        if index == 1 || index == 5 {
          try insert.bind(remembering: Int64(run), at: Int32(index))
          holds[index] = .integer(Int64(run))
          continue
        }
        // Every parameter is bound each run (`runRebindingAll`'s rule: a text bound in place
        // is let go by the run), most of them remembering, so that runs meet values the
        // parameter already holds.
        switch random.next() % 10 {
        case 0:
          let value = values[Int(random.next() % 6)]
          try insert.bind(value, at: Int32(index))
          holds[index] = .integer(value)
        case 1:
          let value = Double(values[Int(random.next() % 3)])
          try insert.bind(value, at: Int32(index))
          holds[index] = .real(value)
        case 2:
          try insert.bindNull(at: Int32(index))
          holds[index] = .null
        case 3:
          let value = String(values[Int(random.next() % 6)])
          try insert.bind(borrowing: value, at: Int32(index))
          holds[index] = .text(value)
        case 4:
          // The remembering NULL, directly and as an optional's nil.
          switch random.next() % 3 {
          case 0: try insert.bindNull(rememberingAt: Int32(index))
          case 1: try insert.bind(nil as Int64?, at: Int32(index))
          default: try insert.bind(borrowing: nil as String?, at: Int32(index))
          }
          holds[index] = .null
        case 5:
          // Two static texts, and one with another text's bytes at another address.
          let (text, value): (StaticString, String) =
            switch random.next() % 3 {
            case 0: ("run", "run")
            case 1: ("concatenation", "concatenation")
            default: ("1", "1")
            }
          try insert.bind(remembering: text, at: Int32(index))
          holds[index] = .text(value)
        default:
          let value = values[Int(random.next() % 3)]
          try insert.bind(remembering: value, at: Int32(index))
          holds[index] = .integer(value)
        }
      }
      expected.append(Array(holds[1...4]))
      expected.append(Array(holds[5...8]))
      if random.next() % 8 == 0 {
        try insert.run()
        holds = [Bound](repeating: .null, count: 9)
      } else {
        try insert.runRebindingAll()
      }
    }
    try db.execute("COMMIT")
    let select = try db.prepare(
      """
      SELECT run, typeof(run), a, typeof(a), b, typeof(b), c, typeof(c) FROM t ORDER BY rowid
      """)
    var stored: [[Bound]] = []
    while try select.step() {
      stored.append(
        (0..<4).map { column in
          let value = Int32(2 * column)
          return switch select.text(at: value + 1) {
          case "integer": .integer(select.int64(at: value))
          case "real": .real(select.double(at: value))
          case "text": .text(select.text(at: value))
          default: .null
          }
        })
    }
    XCTAssertEqual(stored.count, expected.count)
    for (row, (got, want)) in zip(stored, expected).enumerated() where got != want {
      XCTFail("row \(row): stored \(got), bound \(want)")
      break
    }
  }
}

import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The reader's checks of untrusted values, at the TraceKit level: each damaged value is an
/// error naming it, and SQLite's own wording stays in `detail`.
final class TraceReaderValidationTests: XCTestCase {
  let metadata = TraceMetadata(
    rootReducer: "Counter", stateType: "Counter.State", actionType: "Counter.Action",
    keyframeInterval: 4, extra: [:])

  /// Steps 1…9 of a counter, step 6 and 7 dropped (a gap after step 5).
  func writeTrace(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("t.rewind")
    let state = { (count: Int) in TraceValue.object([TraceField("count", .int(Int64(count)))]) }
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    for step in [1, 2, 3, 4, 5, 8, 9] {
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_000 + Double(step),
          origin: .user, actionPath: "increment", action: .null,
          changes: [.set(TracePath([.key("count")]), .int(Int64(step)))],
          changedPaths: ["count"], stateHash: state(step).stableHash, reducerNanos: 10),
        state: state(step))
    }
    try writer.close()
    return path
  }

  func edited(_ sql: String) throws -> (TemporaryDirectory, String) {
    let directory = try TemporaryDirectory()
    let path = try writeTrace(in: directory)
    let editor = try TraceEditor(path: path)
    try editor.execute(sql)
    editor.close()
    return (directory, path)
  }

  func testRowsDeletedFromTheIndexAreNotDroppedSteps() throws {
    let (directory, path) = try edited("DELETE FROM steps WHERE step IN (2, 3)")
    let reader = try TraceReader(path: path)
    XCTAssertThrowsError(try reader.rows(from: 0, to: 9)) { error in
      XCTAssertEqual((error as? TraceError)?.kind, .missingIndexRows(first: 2, last: 3))
      XCTAssertEqual(
        "\(error)",
        "\(path): steps 2…3 are missing from the index, and no gap records them as dropped "
          + "(rows were deleted)")
    }
    // The recorder's own gap still reads as one.
    XCTAssertEqual(try reader.rows(from: 4, to: 9).map(\.step), [4, 5, 8, 9])
    XCTAssertThrowsError(try reader.row(at: 6)) { error in
      XCTAssertEqual((error as? TraceError)?.kind, .missingStep)
    }
    XCTAssertThrowsError(try reader.row(at: 3)) { error in
      XCTAssertEqual((error as? TraceError)?.kind, .missingIndexRows(first: 3, last: 3))
    }
    _ = directory
  }

  func testASendFromALaterStepIsDamage() throws {
    let (directory, path) = try edited(
      "UPDATE steps SET origin = -4 WHERE step = 3; UPDATE steps SET origin = -100 WHERE step = 4")
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.row(at: 3).origin, .send(step: 1))
    XCTAssertThrowsError(try reader.row(at: 4)) { error in
      XCTAssertEqual(
        (error as? TraceError)?.kind,
        .corruptIndex("origin -100 names a send of step 97, not an earlier step"))
    }
    _ = directory
  }

  func testGapsThatContradictTheIndexAreDamage() throws {
    let cases: [(String, TraceError.Kind, Int?)] = [
      ("UPDATE gaps SET dropped = 0", .corruptGap("dropped is 0, outside 1…281474976710656"), 5),
      (
        "INSERT INTO gaps VALUES (2, 1)",
        .corruptGap("it says steps 3…3 were dropped, but step 3 is recorded"), 2
      ),
      (
        "INSERT INTO gaps VALUES (9, 4), (11, 1)",
        .corruptGap("it follows step 11, after the last step 9"), 11
      ),
      (
        "INSERT INTO gaps VALUES (4, 1)",
        .corruptGap("it says steps 5…5 were dropped, but step 5 is recorded"), 4
      ),
    ]
    for (sql, kind, step) in cases {
      let (directory, path) = try edited(sql)
      XCTAssertThrowsError(try TraceReader(path: path).info(), sql) { error in
        XCTAssertEqual((error as? TraceError)?.kind, kind, sql)
        XCTAssertEqual((error as? TraceError)?.step, step, sql)
      }
      _ = directory
    }
  }

  func testSQLiteWordingStaysInTheDetail() throws {
    let directory = try TemporaryDirectory()
    let path = try writeTrace(in: directory)
    let reader = try TraceReader(path: path)
    let editor = try TraceEditor(path: path)
    try editor.execute("DROP TABLE gaps")
    editor.close()
    XCTAssertThrowsError(try reader.gaps()) { error in
      let error = error as? TraceError
      XCTAssertEqual(error?.kind, .database("the trace has no 'gaps' table"))
      XCTAssertEqual(error?.description, "\(path): the trace has no 'gaps' table")
      XCTAssertEqual(
        error?.detail,
        "SQLite error 1: no such table: gaps - while executing "
          + "'SELECT after_step, dropped FROM gaps ORDER BY after_step'")
    }
  }

  func testTheTreeIsReadFieldByFieldAndNoDeeperThanTheLimit() {
    let cases: [(String, String)] = [
      ("[]", "the root is not an object"),
      (#"{"typeName":"A"}"#, "the root has no 'kind'"),
      (#"{"kind":1}"#, "'kind' of the root is not a string"),
      (#"{"kind":"A","children":{}}"#, "'children' of the root is not an array"),
      (#"{"kind":"A","children":[1]}"#, "child 0 of 'A' is not an object"),
    ]
    for (json, reason) in cases {
      XCTAssertThrowsError(try TraceReader.decodeTree(Array(json.utf8))) { error in
        XCTAssertEqual((error as? TraceReader.TreeFailure)?.reason, reason, json)
      }
    }
    func nested(_ depth: Int) -> String {
      var json = #"{"kind":"Reduce","typeName":"","children":[]}"#
      for _ in 0..<depth { json = #"{"kind":"Scope","typeName":"T","children":["# + json + "]}" }
      return json
    }
    XCTAssertNoThrow(try TraceReader.decodeTree(Array(nested(127).utf8)))
    XCTAssertThrowsError(try TraceReader.decodeTree(Array(nested(128).utf8))) { error in
      XCTAssertEqual(
        (error as? TraceReader.TreeFailure)?.reason, "nested deeper than 128 levels")
    }
  }

  func testUserMessagesSayWhatWithoutSQL() {
    XCTAssertEqual(
      SQLiteError(code: 1, message: "no such column: wall", sql: "SELECT wall FROM steps")
        .userMessage,
      "a table lacks the column 'wall' this reader needs")
    XCTAssertEqual(
      SQLiteError(code: 5, message: "database is locked").userMessage,
      "another process holds a lock on the trace")
    XCTAssertEqual(
      SQLiteError(code: 11, message: "database disk image is malformed").userMessage,
      "the database file is damaged")
  }
}

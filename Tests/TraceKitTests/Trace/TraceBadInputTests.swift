import Foundation
import TestSupport
import XCTest

@testable import TraceKit

final class TraceBadInputTests: XCTestCase {
  var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory = nil
  }

  func assertError<T>(
    _ body: @autoclosure () throws -> T, _ kind: TraceError.Kind, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
      guard let error = error as? TraceError else {
        return XCTFail("not a TraceError: \(error)", file: file, line: line)
      }
      XCTAssertEqual(error.kind, kind, file: file, line: line)
      XCTAssertEqual(error.description, message, file: file, line: line)
    }
  }

  /// A closed 20-step trace (keyframes every 8 steps, chunks of 5 steps) open for surgery.
  func damageableTrace() throws -> (path: String, db: SQLiteConnection) {
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 20, keyframeInterval: 8, chunkStepLimit: 5)
    return (path, try SQLiteConnection(path: path, mode: .readWrite))
  }

  func testMissingFile() {
    let path = directory.path("missing.rewind")
    assertError(try TraceReader(path: path), .fileNotFound, "\(path): no such file")
  }

  func testDirectory() {
    let path = directory.url.path
    assertError(
      try TraceReader(path: path), .isDirectory, "\(path): is a directory, not a trace file")
  }

  func testTextFileIsNotSQLite() {
    let path = directory.path("notes.rewind")
    _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 65, count: 500))
    assertError(
      try TraceReader(path: path), .notSQLite,
      "\(path): not a SQLite database, so not a Rewind trace")
    let empty = directory.path("empty.rewind")
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    assertError(
      try TraceReader(path: empty), .notSQLite,
      "\(empty): not a SQLite database, so not a Rewind trace")
  }

  func testOtherSQLiteDatabaseIsNotATrace() throws {
    let path = directory.path("other.db")
    try SQLiteConnection(path: path, mode: .create).execute("CREATE TABLE t (x)")
    assertError(
      try TraceReader(path: path),
      .notATrace("its application_id is 0, not 1381453380 ('RWND')"),
      "\(path): a SQLite database but not a Rewind trace"
        + " (its application_id is 0, not 1381453380 ('RWND'))")
  }

  func testUnknownFormatVersion() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE meta SET value = '4' WHERE key = 'format_version'")
    assertError(
      try TraceReader(path: path), .unsupportedVersion("4"),
      "\(path): trace format version 4 is not supported (this reader reads versions 1, 2 and 3)")
  }

  func testMissingTable() throws {
    let (path, db) = try damageableTrace()
    try db.execute("DROP TABLE keyframes")
    assertError(
      try TraceReader(path: path), .missingTable("keyframes"),
      "\(path): the trace has no 'keyframes' table")
  }

  func testChunkFailingItsChecksum() throws {
    let (path, db) = try damageableTrace()
    let select = try db.prepare("SELECT data FROM chunks WHERE first_step = 5")
    XCTAssertTrue(try select.step())
    var frame = select.blob(at: 0)
    select.reset()
    frame[frame.count - 2] ^= 0x40  // inside the content checksum
    let update = try db.prepare("UPDATE chunks SET data = ? WHERE first_step = 5")
    try update.bind(blob: frame, at: 1)
    try update.run()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.action(at: 4), SyntheticTraceStep(4).action)
    assertError(
      try reader.action(at: 7),
      .corruptChunk("LZ4 frame content checksum mismatch"),
      "\(path): step 7 (chunk 5): payload chunk is damaged: LZ4 frame content checksum mismatch")
    assertError(
      try reader.state(at: 12),
      .corruptChunk("LZ4 frame content checksum mismatch"),
      "\(path): step 9 (chunk 5): payload chunk is damaged: LZ4 frame content checksum mismatch")
    XCTAssertEqual(try reader.state(at: 16), try expectedState(16))
  }

  func expectedState(_ step: Int) throws -> TraceValue {
    var trace = SyntheticTrace()
    while trace.step < step { _ = trace.next() }
    return trace.state
  }

  func testTruncatedFile() throws {
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 300, chunkStepLimit: 20)
    let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
    let size = try handle.seekToEnd()
    try handle.truncate(atOffset: size / 2)
    try handle.close()
    assertError(
      try TraceReader(path: path),
      .truncated(expectedBytes: Int(size), actualBytes: Int(size / 2)),
      "\(path): file is truncated: \(size / 2) bytes, the header says \(size)")
  }

  func testKeyframeMissingForAStep() throws {
    let (path, db) = try damageableTrace()
    try db.execute("DELETE FROM keyframes WHERE step = 0")
    let reader = try TraceReader(path: path)
    assertError(
      try reader.state(at: 3), .missingKeyframe,
      "\(path): step 3: no keyframe at or before this step")
    XCTAssertEqual(try reader.state(at: 9), try expectedState(9))
  }

  func testStepOutOfRange() throws {
    let (path, _) = try damageableTrace()
    let reader = try TraceReader(path: path)
    assertError(
      try reader.state(at: 21), .stepOutOfRange(lastStep: 20),
      "\(path): step 21: out of range (the trace has steps 0…20)")
    assertError(
      try reader.action(at: -1), .stepOutOfRange(lastStep: 20),
      "\(path): step -1: out of range (the trace has steps 0…20)")
  }

  func testRecordedHashThatDoesNotMatchTheState() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET state_hash = 1 WHERE step = 11")
    let reader = try TraceReader(path: path)
    let actual = try expectedState(11).stableHash
    assertError(
      try reader.state(at: 11), .hashMismatch(expected: 1, actual: actual),
      "\(path): step 11: state hash mismatch: recorded 0x0000000000000001, reconstructed 0x"
        + String(actual, radix: 16).leftPadded(to: 16))
    XCTAssertEqual(try reader.state(at: 12), try expectedState(12))
  }

  func testHashMismatchIsFoundWhenReplayingInOrderToo() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET state_hash = 7 WHERE step = 12")
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.state(at: 10), try expectedState(10))
    XCTAssertEqual(try reader.state(at: 11), try expectedState(11))
    let actual = try expectedState(12).stableHash
    assertError(
      try reader.state(at: 12), .hashMismatch(expected: 7, actual: actual),
      "\(path): step 12: state hash mismatch: recorded 0x0000000000000007, reconstructed 0x"
        + String(actual, radix: 16).leftPadded(to: 16))
    XCTAssertEqual(try reader.state(at: 13), try expectedState(13))
  }

  func testOriginThatIsNotAnIDInTheIndex() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET origin = 'robot' WHERE step = 3")
    let reader = try TraceReader(path: path)
    assertError(
      try reader.rows(from: 0, to: 5), .corruptIndex("origin is 'robot', not an integer"),
      "\(path): step 3: index row is damaged: origin is 'robot', not an integer")
  }

  func testOriginMissingFromOriginsTable() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET origin = 9 WHERE step = 3")
    let reader = try TraceReader(path: path)
    assertError(
      try reader.row(at: 3), .corruptIndex("origin 9 is not in origins"),
      "\(path): step 3: index row is damaged: origin 9 is not in origins")
    XCTAssertEqual(try reader.row(at: 5).origin, .effect(SyntheticTrace.effectID))
  }

  func testActionAndPathSetMissingFromTheirTables() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET action = 40 WHERE step = 3")
    try db.execute("UPDATE steps SET changed = 41 WHERE step = 4")
    try db.execute("UPDATE path_sets SET paths = '{\"a\":1}' WHERE id = 2")
    let reader = try TraceReader(path: path)
    assertError(
      try reader.row(at: 3), .corruptIndex("action 40 is not in actions"),
      "\(path): step 3: index row is damaged: action 40 is not in actions")
    assertError(
      try reader.row(at: 4), .corruptIndex("changed path set 41 is not in path_sets"),
      "\(path): step 4: index row is damaged: changed path set 41 is not in path_sets")
    assertError(
      try reader.row(at: 5), .corruptIndex("path set 2 is not a JSON array"),
      "\(path): step 5: index row is damaged: path set 2 is not a JSON array")
    XCTAssertEqual(try reader.row(at: 6).changedPaths, ["count", "label"])
  }

  func testWallTimeThatIsNeitherOffsetNorTime() throws {
    let (path, db) = try damageableTrace()
    try db.execute("UPDATE steps SET wall = 'noon' WHERE step = 3")
    let reader = try TraceReader(path: path)
    assertError(
      try reader.row(at: 3), .corruptIndex("wall is 'noon', not a time"),
      "\(path): step 3: index row is damaged: wall is 'noon', not a time")
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The compact index: interned `actions`, `path_sets` and `origins`, wall times stored as
/// offsets, chunks keyed by their first step, and the `step_index` view that reads like the
/// old one-table index.
final class TraceIndexTablesTests: XCTestCase {
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

  func rows(_ db: SQLiteConnection, _ sql: String) throws -> [String] {
    let statement = try db.prepare(sql)
    defer { statement.reset() }
    var rows: [String] = []
    while try statement.step() {
      rows.append(
        (0..<statement.columnCount).map { statement.optionalText(at: $0) ?? "NULL" }
          .joined(separator: "|"))
    }
    return rows
  }

  func testDistinctActionsPathSetsAndOriginsAreStoredOnce() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 300)
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(
      try rows(db, "SELECT id, path FROM actions ORDER BY id"),
      ["0|", "1|incrementButtonTapped", "2|decrementButtonTapped", "3|loadingChanged"])
    XCTAssertEqual(
      try rows(db, "SELECT id, paths FROM path_sets ORDER BY id"),
      ["0|[]", "1|[\"count\",\"label\"]", "2|[\"isLoading\",\"label\"]"])
    XCTAssertEqual(
      try rows(db, "SELECT id, effect_id FROM origins"),
      ["2|E621E1F8-C36C-495A-93FC-0C247A3E6E5F"])
    XCTAssertEqual(
      try rows(db, "SELECT origin, action, changed FROM steps WHERE step IN (0, 1, 3, 5)"),
      ["0|0|0", "1|1|1", "1|2|1", "2|3|2"])
  }

  func testAPathSetIsStoredOnceWhetherItRepeatsAlternatesOrComesBackLater() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: .object([]),
      wallTime: SyntheticTrace.startWallTime)
    let sets: [[String]] = [
      ["a"], ["a"], ["b"], ["a"], ["b"], ["c"], ["a"], [], ["a", "b"], ["b", "a"], ["a", "b"],
      ["c"], ["b", "a"], ["\"b\\"], ["b"],
    ]
    for (index, paths) in sets.enumerated() {
      try writer.append(
        StepRecord(
          step: index + 1, monotonicNanos: UInt64(index + 1),
          wallTime: SyntheticTrace.startWallTime, origin: .user, actionPath: "tap",
          action: .null, changes: [], changedPaths: paths,
          stateHash: 0, reducerNanos: 0),
        state: .object([]))
    }
    try writer.close()
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(
      try rows(db, "SELECT id, paths FROM path_sets ORDER BY id"),
      [
        "0|[]", "1|[\"a\"]", "2|[\"b\"]", "3|[\"c\"]", "4|[\"a\",\"b\"]",
        "5|[\"b\",\"a\"]", #"6|["\"b\\"]"#,
      ])
    XCTAssertEqual(
      try rows(
        db, "SELECT group_concat(changed, ' ') FROM (SELECT changed FROM steps ORDER BY step)"),
      ["0 1 1 2 1 2 3 1 0 4 5 4 3 5 6 2"])
  }

  func testStepIndexViewShowsWhatTheReaderReturns() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 2_100)
    let reader = try TraceReader(path: path)
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    let view = try db.prepare(
      """
      SELECT step, mono_ns, wall_time, origin, action_path, changed_paths, state_hash,
        reducer_ns, chunk FROM step_index ORDER BY step
      """)
    defer { view.reset() }
    var count = 0
    while try view.step() {
      let step = Int(view.int64(at: 0))
      let row = try reader.row(at: step)
      XCTAssertEqual(UInt64(bitPattern: view.int64(at: 1)), row.monotonicNanos)
      XCTAssertEqual(view.double(at: 2), row.wallTime, "step \(step)")
      XCTAssertEqual(view.text(at: 3), row.origin.storageText)
      XCTAssertEqual(view.text(at: 4), row.actionPath)
      XCTAssertEqual(
        view.text(at: 5),
        "[" + row.changedPaths.map { "\"\($0)\"" }.joined(separator: ",") + "]")
      XCTAssertEqual(UInt64(bitPattern: view.int64(at: 6)), row.stateHash)
      XCTAssertEqual(UInt64(bitPattern: view.int64(at: 7)), row.reducerNanos)
      XCTAssertEqual(view.int64(at: 8), Int64(step / 512 * 512))  // chunks of 512 steps
      count += 1
    }
    XCTAssertEqual(count, 2_101)
    XCTAssertEqual(try reader.row(at: 5).origin, .effect(SyntheticTrace.effectID))
    // Step 5's wall clock was read 5 * 7919 % 4000 = 3595 ns after its monotonic one.
    XCTAssertEqual(
      try reader.row(at: 5).wallTime, 1_780_000_000 + Double(5_000_000 + 3_595) / 1e9)
  }

  func testWallTimeIsAnOffsetUnlessItCannotBeDerived() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let start = 1_780_000_000.25
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: .int(0), wallTime: start)
    // Step 1 follows the monotonic clock 1.5 µs late; step 2's wall clock jumped back a day;
    // step 3's wall time is far beyond what nanosecond offsets can reach.
    let walls = [start + 0.001_001_5, start - 86_400, 1e300]
    for (index, wall) in walls.enumerated() {
      try writer.append(
        StepRecord(
          step: index + 1, monotonicNanos: UInt64(index + 1) * 1_000_000, wallTime: wall,
          origin: .user, actionPath: "tick", action: .enumCase("tick", []), changes: [],
          changedPaths: [], stateHash: TraceValue.int(0).stableHash, reducerNanos: 1),
        state: .int(0))
    }
    assertError(
      try writer.append(
        StepRecord(
          step: 4, monotonicNanos: 4, wallTime: .nan, origin: .user, actionPath: "tick",
          action: .null, changes: [], changedPaths: [], stateHash: 0, reducerNanos: 1),
        state: .int(0)),
      .invalidWrite("the wall time is not a number"),
      "\(path): step 4: the wall time is not a number")
    try writer.close()
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(
      try rows(db, "SELECT step, typeof(wall) FROM steps ORDER BY step"),
      ["0|real", "1|integer", "2|integer", "3|real"])
    // 1.5 µs, to within the 238 ns between neighbouring Doubles near 1.78e9.
    let offset = try XCTUnwrap(try db.scalarInt("SELECT wall FROM steps WHERE step = 1"))
    XCTAssertLessThanOrEqual(abs(offset - 1_500), 119)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 0, to: 3).map(\.wallTime), [start] + walls)
  }

  func testFiltersSelectExactlyTheRowsTheyMatch() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 600)
    let reader = try TraceReader(path: path)
    let all = try reader.rows(from: 0, to: .max)
    let filters = [
      StepFilter(actionPrefix: "loadingChanged"),
      StepFilter(actionPrefix: "loading"),
      StepFilter(actionPrefix: ""),
      StepFilter(from: 100, to: 130, changedPath: "isLoading"),
      StepFilter(changedPath: "label"),
      StepFilter(changedPath: "nothing"),
      StepFilter(origin: .initial),
      StepFilter(origin: .user),
      StepFilter(from: 7, to: 60, origin: .effect),
      StepFilter(origin: .effectID(SyntheticTrace.effectID)),
      StepFilter(origin: .effectID(SyntheticTrace.effectID(3))),
      StepFilter(actionPrefix: "incrementButtonTapped", changedPath: "count", origin: .user),
    ]
    for filter in filters {
      XCTAssertEqual(
        try reader.rows(matching: filter), all.filter(filter.matches), "\(filter)")
    }
    XCTAssertEqual(try reader.rows(matching: filters[0]).count, 120)
    XCTAssertEqual(try reader.rows(matching: filters[1]).count, 0)
    XCTAssertEqual(
      try reader.rows(matching: filters[3]).map(\.step), [100, 105, 110, 115, 120, 125, 130])
  }

  func testFrequentFlushesLeaveNoFreePages() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    var trace = SyntheticTrace()
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: trace.state)
    for _ in 0..<5_000 {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
      if record.step % 7 == 0 { try writer.flush() }
    }
    try writer.close()
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(try db.scalarInt("PRAGMA freelist_count"), 0)
    XCTAssertEqual(try TraceReader(path: path).state(at: 4_999), try stateAt(4_999))
  }

  func testReaderSeesValuesAWriterInternsAfterItOpened() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: .int(0), wallTime: 10)
    let effect = UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!
    func append(_ step: Int, _ action: String, _ paths: [String], _ origin: StepOrigin) throws {
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step), wallTime: 10 + Double(step) / 1e9,
          origin: origin, actionPath: action, action: .enumCase(action, []), changes: [],
          changedPaths: paths, stateHash: TraceValue.int(0).stableHash, reducerNanos: 1),
        state: .int(0))
    }
    try append(1, "a", ["x"], .user)
    try writer.flush()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 0, to: 9).map(\.actionPath), ["", "a"])
    try append(2, "b.c", ["y", "x"], .effect(effect))
    try writer.flush()
    let row = try reader.row(at: 2)
    XCTAssertEqual(row.actionPath, "b.c")
    XCTAssertEqual(row.changedPaths, ["y", "x"])
    XCTAssertEqual(row.origin, .effect(effect))
    XCTAssertEqual(row.wallTime, 10 + 2 / 1e9)
    try append(3, "b.d", ["z"], .effect(effect))
    try writer.flush()
    XCTAssertEqual(try reader.rows(matching: StepFilter(actionPrefix: "b")).map(\.step), [2, 3])
    XCTAssertEqual(try reader.rows(matching: StepFilter(changedPath: "z")).map(\.step), [3])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(origin: .effectID(effect))).map(\.step), [2, 3])
    try writer.close()
  }

  func stateAt(_ step: Int) throws -> TraceValue {
    var trace = SyntheticTrace()
    while trace.step < step { _ = trace.next() }
    return trace.state
  }
}

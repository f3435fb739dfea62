import Foundation
import TestSupport
import XCTest

@testable import TraceKit

final class TraceRoundTripTests: XCTestCase {
  let metadata = TraceMetadata(
    rootReducer: "AppFeature", stateType: "AppFeature.State", actionType: "AppFeature.Action",
    keyframeInterval: 4, extra: ["scenario": "login", "seed": "42"])
  let effectA = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
  let effectB = UUID(uuidString: "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE")!

  func state(_ count: Int64, _ todos: [String]) -> TraceValue {
    .object([
      TraceField("count", .int(count)),
      TraceField("todos", .array(todos.map { .string($0) })),
    ])
  }

  /// Writes 10 steps with every record kind and returns the records written.
  func writeSample(at path: String) throws -> [StepRecord] {
    let writer = try TraceWriter(
      path: path, metadata: metadata, initialState: state(0, []), wallTime: 1_000)
    try writer.writeTree(
      ReducerTreeNode(
        kind: "Recorder", typeName: "AppFeature",
        children: [
          ReducerTreeNode(kind: "Scope", typeName: "CounterFeature", statePath: "count",
                          actionPrefix: "counter")
        ]))
    var records: [StepRecord] = []
    var todos: [String] = []
    for step in 1...10 {
      var changes: [TraceChange] = [.set(TracePath([.key("count")]), .int(Int64(step)))]
      var paths = ["count"]
      if step % 3 == 0 {
        changes.append(
          .insert(TracePath([.key("todos"), .index(todos.count)]), .string("t\(step)")))
        todos.append("t\(step)")
        paths.append("todos")
      }
      let record = StepRecord(
        step: step, monotonicNanos: UInt64(step) * 1_000_000, wallTime: 1_000 + Double(step),
        origin: step.isMultiple(of: 2) ? .effect(effectA) : .user,
        actionPath: "counter.incrementButtonTapped",
        action: .enumCase("counter", [TraceField("_0", .enumCase("incrementButtonTapped", []))]),
        changes: changes, changedPaths: paths, stateHash: state(Int64(step), todos).stableHash,
        reducerNanos: UInt64(step * 10),
        dependencies: step == 5
          ? [DependencyRead(key: "uuid", value: .string("00000000-0000-0000-0000-000000000005")),
             DependencyRead(key: "date", value: .double(1_780_000_000.5))]
          : [])
      try writer.append(record, state: state(Int64(step), todos))
      records.append(record)
      if step == 4 { try writer.flush() }
    }
    try writer.effectStarted(
      EffectRecord(id: effectA, startedByStep: 1, cancelID: "timer", file: "App.swift",
                   line: 42, startNanos: 1_000_000))
    try writer.effectSent(id: effectA, step: 2)
    try writer.effectSent(id: effectA, step: 4)
    try writer.effectEnded(
      id: effectA, endNanos: 9_000_000, outcome: .cancelled(reason: "cancelInFlight", byStep: 9))
    try writer.effectStarted(EffectRecord(id: effectB, startedByStep: 7))
    try writer.appendGap(afterStep: 10, dropped: 3)
    try writer.close()
    return records
  }

  func testEveryRecordKindReadsBackExactly() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let records = try writeSample(at: path)
    let reader = try TraceReader(path: path)

    let info = try reader.info()
    XCTAssertEqual(info.formatVersion, 3)
    XCTAssertEqual(info.metadata, metadata)
    XCTAssertEqual(info.stepCount, 10)
    XCTAssertEqual(info.effectCount, 2)
    XCTAssertEqual(info.gaps, [TraceGap(afterStep: 10, dropped: 3)])
    XCTAssertEqual(info.firstWallTime, 1_000)
    XCTAssertEqual(info.lastWallTime, 1_010)
    XCTAssertEqual(info.chunkCount, 1)
    XCTAssertEqual(info.keyframeCount, 3)  // steps 0, 4, 8
    XCTAssertTrue(info.isComplete)
    XCTAssertGreaterThan(info.payloadRawBytes, 0)

    let rows = try reader.rows(from: 0, to: 100)
    XCTAssertEqual(rows.map(\.step), Array(0...10))
    XCTAssertEqual(
      rows[0],
      StepRow(step: 0, monotonicNanos: 0, wallTime: 1_000, origin: .initial, actionPath: "",
              changedPaths: [], stateHash: state(0, []).stableHash, reducerNanos: 0))
    for record in records {
      XCTAssertEqual(
        rows[record.step],
        StepRow(step: record.step, monotonicNanos: record.monotonicNanos,
                wallTime: record.wallTime, origin: record.origin,
                actionPath: record.actionPath, changedPaths: record.changedPaths,
                stateHash: record.stateHash, reducerNanos: record.reducerNanos))
      XCTAssertEqual(try reader.action(at: record.step), record.action)
      XCTAssertEqual(try reader.changes(at: record.step), record.changes)
      XCTAssertEqual(try reader.dependencies(at: record.step), record.dependencies)
    }
    XCTAssertEqual(try reader.action(at: 0), .null)
    XCTAssertEqual(try reader.state(at: 0), state(0, []))
    XCTAssertEqual(try reader.state(at: 7), state(7, ["t3", "t6"]))
    XCTAssertEqual(try reader.state(at: 10), state(10, ["t3", "t6", "t9"]))
    XCTAssertEqual(try reader.state(at: 2), state(2, []))

    XCTAssertEqual(
      try reader.effects(),
      [
        EffectRecord(id: effectA, startedByStep: 1, cancelID: "timer", file: "App.swift",
                     line: 42, startNanos: 1_000_000, endNanos: 9_000_000,
                     outcome: .cancelled(reason: "cancelInFlight", byStep: 9),
                     sentSteps: [2, 4]),
        EffectRecord(id: effectB, startedByStep: 7, outcome: .unfinished),
      ])
    XCTAssertEqual(
      try reader.tree(),
      ReducerTreeNode(
        kind: "Recorder", typeName: "AppFeature",
        children: [
          ReducerTreeNode(kind: "Scope", typeName: "CounterFeature", statePath: "count",
                          actionPrefix: "counter")
        ]))
    XCTAssertEqual(try reader.gaps().map { [$0.afterStep, $0.dropped] }, [[10, 3]])
  }

  func testStatesReadInAnyOrderMatchTheRecordedHashes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: SyntheticTrace().state)
    var trace = SyntheticTrace()
    var states: [TraceValue] = [trace.state]
    for _ in 1...5_000 {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
      states.append(state)
    }
    try writer.close()
    let reader = try TraceReader(path: path)
    // Chunks seal at 2048 lines or 256 KiB; their rows (parts: step 0 was committed alone)
    // cover steps 0…5000 without overlap.
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    let chunks = try db.prepare(
      "SELECT first_step, last_step, step_count, chunk FROM chunks ORDER BY first_step")
    var next = 0
    var count = 0
    var lines = 0
    while try chunks.step() {
      XCTAssertEqual(chunks.int64(at: 0), Int64(next))
      XCTAssertEqual(chunks.int64(at: 1) - chunks.int64(at: 0) + 1, chunks.int64(at: 2))
      if chunks.int64(at: 3) == chunks.int64(at: 0) {
        count += 1
        lines = 0
      }
      lines += Int(chunks.int64(at: 2))
      XCTAssertLessThanOrEqual(lines, 2_048)
      next = Int(chunks.int64(at: 1)) + 1
    }
    chunks.reset()
    XCTAssertEqual(next, 5_001)
    XCTAssertGreaterThan(count, 2)
    XCTAssertEqual(try reader.info().chunkCount, count)
    var random = SplitMix(seed: 3)
    for _ in 0..<200 {
      let step = Int(random.next() % 2_001)
      XCTAssertEqual(try reader.state(at: step), states[step], "step \(step)")
    }
    for step in 1_990...2_000 {
      XCTAssertEqual(try reader.state(at: step), states[step])
    }
  }

  func testFilterSelectsByOriginActionAndChangedPath() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    _ = try writeSample(at: path)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(changedPath: "todos")).map(\.step), [3, 6, 9])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(changedPath: "todos[0]")).map(\.step), [3, 6, 9])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(from: 3, to: 8, origin: .effectID(effectA)))
        .map(\.step), [4, 6, 8])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(origin: .initial)).map(\.step), [0])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(to: 3, actionPrefix: "counter")).map(\.step),
      [1, 2, 3])
    XCTAssertEqual(
      try reader.rows(matching: StepFilter(actionPrefix: "count")).map(\.step), [])
  }

  func testForEachRowStopsWhenTheBodyReturnsFalse() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    _ = try writeSample(at: path)
    let reader = try TraceReader(path: path)
    var seen: [Int] = []
    try reader.forEachRow(from: 2, to: 10) { row in
      seen.append(row.step)
      return row.step < 5
    }
    XCTAssertEqual(seen, [2, 3, 4, 5])
  }

  func testJumpInStepNumbersRecordsAGapAndAKeyframe() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0, []))
    try writer.append(
      StepRecord(step: 5, monotonicNanos: 5, wallTime: 5, origin: .user, actionPath: "a",
                 action: .null, changes: [.set(TracePath([.key("count")]), .int(5))],
                 changedPaths: ["count"], stateHash: state(5, []).stableHash, reducerNanos: 1),
      state: state(5, []))
    XCTAssertThrowsError(
      try writer.append(
        StepRecord(step: 5, monotonicNanos: 5, wallTime: 5, origin: .user, actionPath: "a",
                   action: .null, changes: [], changedPaths: [], stateHash: 0, reducerNanos: 1),
        state: state(5, []))
    ) { error in
      XCTAssertEqual("\(error)", "\(path): step 5: steps must increase: step 5 follows step 5")
    }
    try writer.close()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().gaps, [TraceGap(afterStep: 0, dropped: 4)])
    XCTAssertEqual(try reader.info().keyframeCount, 2)
    XCTAssertEqual(try reader.state(at: 5), state(5, []))
    XCTAssertThrowsError(try reader.state(at: 3)) { error in
      XCTAssertEqual((error as? TraceError)?.kind, .missingStep)
      XCTAssertEqual("\(error)", "\(path): step 3: step is not in the trace")
    }
  }

  func testClosedTraceIsOnePlainFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    _ = try writeSample(at: path)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path), ["t.rewind"])
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(try db.scalarText("PRAGMA journal_mode"), "delete")
    XCTAssertEqual(try db.scalarInt("PRAGMA application_id"), 0x5257_4E44)
    XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), 3)
  }

  func testClosedWriterRefusesMoreWork() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0, []))
    try writer.close()
    XCTAssertThrowsError(try writer.flush()) { error in
      XCTAssertEqual("\(error)", "\(path): the writer is closed")
    }
  }

  func testWriterRefusesToOverwriteAFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
    XCTAssertThrowsError(
      try TraceWriter(path: path, metadata: metadata, initialState: .null)
    ) { error in
      XCTAssertEqual("\(error)", "\(path): a file already exists at this path")
    }
  }

  func testEndingAnUnknownEffectIsAnError() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: .null)
    XCTAssertThrowsError(
      try writer.effectEnded(id: effectB, endNanos: 1, outcome: .finished)
    ) { error in
      XCTAssertEqual(
        "\(error)", "\(path): effect AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE ended but never started")
    }
  }
}

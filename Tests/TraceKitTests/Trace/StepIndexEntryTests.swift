import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `TraceReader.forEachStepLine` (what `inspector replay` reads): the rows' step, origin and
/// state hash with each step's line, every column checked as `forEachStep` checks it. Both
/// are run on the same traces, whole and damaged, and must agree to the last error's text.
/// So must `forEachStepAction` (what typed replay reads: the same with each row's action
/// path) and `forEachStep` with the rows' action paths.
final class StepIndexEntryTests: XCTestCase {
  let metadata = TraceMetadata(
    rootReducer: "Shop", stateType: "Shop.State", actionType: "Shop.Action",
    keyframeInterval: 5, extra: [:])
  let timer = UUID(uuidString: "6B1E0C52-3A59-4F0C-9D1B-0F0A3E0C2B11")!
  let actions = ["cart.add", "cart.remove", "search.query", "cart.add", "timer.tick"]

  func items(_ step: Int) -> TraceValue { .int(Int64(step % 7)) }
  func query(_ step: Int) -> TraceValue { .string(step % 3 == 0 ? "" : "q\(step)") }

  func state(_ step: Int) -> TraceValue {
    .object([TraceField("items", items(step)), TraceField("query", query(step))])
  }

  func origin(_ step: Int) -> StepOrigin {
    switch step % 4 {
    case 0: .effect(timer)
    case 1: .user
    case 2: .send(step: step - 1)
    default: .observer
    }
  }

  /// Steps 1…24 without 10 and 11 (dropped): four origins, five action paths in an order
  /// that passes over the reader's two remembered ones, changed-path sets of none, one and
  /// two paths, chunks ended after steps 6 and 17.
  func writeTrace(at path: String) throws -> [Int] {
    try writeTrace(
      at: path, steps: Array(1...9) + Array(12...24),
      changed: { [[], ["items"], ["items", "query"]][$0 % 3] },
      endsChunk: { $0 == 6 || $0 == 17 })
  }

  /// Steps 1…`last`, each changing both paths, chunks ended every 50 steps: more rows than
  /// the replay's row capture holds at once (`TraceReader.rowCaptureRows`).
  func writeLongTrace(at path: String, through last: Int) throws -> [Int] {
    try writeTrace(
      at: path, steps: Array(1...last), changed: { _ in ["items", "query"] },
      endsChunk: { $0 % 50 == 0 })
  }

  /// `steps` recorded after step 0, each changing both paths and naming the changed-path set
  /// `changed` gives it, a chunk ended after each step `endsChunk` picks; the steps written.
  func writeTrace(
    at path: String, steps: [Int], changed: (Int) -> [String], endsChunk: (Int) -> Bool
  ) throws -> [Int] {
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    for step in steps {
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_000 + Double(step),
          origin: origin(step), actionPath: actions[step % actions.count],
          action: .enumCase(actions[step % actions.count], []),
          changes: [
            .set(TracePath([.key("items")]), items(step)),
            .set(TracePath([.key("query")]), query(step)),
          ],
          changedPaths: changed(step), stateHash: state(step).stableHash, reducerNanos: 10),
        state: state(step))
      if endsChunk(step) { try writer.flush() }
    }
    try writer.close()
    return [0] + steps
  }

  /// What each way of reading hands out, one line a step, and the error it stopped on; with
  /// `actionPaths`, each row's action path too.
  func general(_ path: String, actionPaths: Bool = false) -> [String] {
    read(path) { reader, add in
      try reader.forEachStep(from: 0, to: .max) { row, payload in
        let actionPath = actionPaths ? " \(row.actionPath)" : ""
        add("\(row.step) \(row.origin) \(row.stateHash)\(actionPath) line \(payload.step)")
        return true
      }
    }
  }

  /// The line found in the chunk handed over, as a replay's checking thread finds it.
  func lean(_ path: String) -> [String] {
    read(path) { reader, add in
      var lineError: TraceError?
      var chunk: TraceReader.LoadedChunk?
      try reader.forEachStepLine(from: 0, to: .max) { entry, next in
        chunk = next ?? chunk
        guard let chunk else {
          XCTFail("step \(entry.step) came before any chunk")
          return false
        }
        do throws(TraceError) {
          let payload = try chunk.payload(of: entry.step)
          add("\(entry.step) \(entry.origin) \(entry.stateHash) line \(payload.step)")
          return true
        } catch {
          lineError = error
          return false
        }
      }
      if let lineError { throw lineError }
    }
  }

  /// What typed replay reads: each row's entry and action path, and its line.
  func typedReplay(_ path: String) -> [String] {
    read(path) { reader, add in
      try reader.forEachStepAction(from: 0, to: .max) { entry, actionPath, payload in
        add("\(entry.step) \(entry.origin) \(entry.stateHash) \(actionPath) line \(payload.step)")
        return true
      }
    }
  }

  func read(
    _ path: String, _ body: (TraceReader, (String) -> Void) throws -> Void
  ) -> [String] {
    var seen: [String] = []
    do {
      try body(try TraceReader(path: path)) { seen.append($0) }
    } catch {
      seen.append("error: \(error)")
    }
    return seen
  }

  func testEveryStepIsHandedOutWithItsOriginHashAndLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let steps = try writeTrace(at: path)
    let expected = steps.map { step in
      "\(step) \(step == 0 ? .initial : origin(step)) \(state(step).stableHash) line \(step)"
    }
    XCTAssertEqual(lean(path), expected)
    XCTAssertEqual(general(path), expected)
    let withPaths = steps.dropFirst().map { step in
      "\(step) \(origin(step)) \(state(step).stableHash) \(actions[step % actions.count])"
        + " line \(step)"
    }
    XCTAssertEqual(Array(typedReplay(path).dropFirst()), withPaths)
    XCTAssertEqual(typedReplay(path), general(path, actionPaths: true))
    // A range that starts after the gap and ends mid-chunk, stopped by the body.
    let reader = try TraceReader(path: path)
    var seen: [Int] = []
    try reader.forEachStepLine(from: 12, to: 20) { entry, _ in
      seen.append(entry.step)
      return entry.step < 18
    }
    XCTAssertEqual(seen, [12, 13, 14, 15, 16, 17, 18])
  }

  /// Makes `steps` a table whose step is not its rowid, its rows stored in `order` (`ASC` or
  /// `DESC`), then runs `damage`.
  func remakeStepsTable(at path: String, order: String, then damage: String) throws {
    let editor = try TraceEditor(path: path)
    // The `step_index` view names `steps`: renamed the legacy way, it names the new table.
    try editor.execute(
      "PRAGMA legacy_alter_table = ON; ALTER TABLE steps RENAME TO old_steps; "
        + "CREATE TABLE steps AS SELECT * FROM old_steps ORDER BY step \(order); "
        + "DROP TABLE old_steps; \(damage)")
    editor.close()
  }

  /// A `steps` table whose step is not its rowid (made by hand): SQLite sorts the rows, and
  /// calls the row capture of the replay's reading (`SQLiteRowCapture`) for every row before
  /// it returns the first. The reading notices that the steps the capture holds do not go up
  /// and reads the columns: the same steps, and the same error at a damaged row.
  func testRowsReturnedAfterASortReadTheSameAsTheirColumns() throws {
    for damage in ["", "UPDATE steps SET wall = 'noon' WHERE step = 5"] {
      let directory = try TemporaryDirectory()
      let path = directory.path("t.rewind")
      let steps = try writeTrace(at: path)
      try remakeStepsTable(at: path, order: "DESC", then: damage)
      let lean = lean(path)
      XCTAssertEqual(lean, general(path), damage)
      XCTAssertEqual(lean.count, damage.isEmpty ? steps.count : 6, damage)
    }
  }

  /// A trace of more rows than the row capture holds, whole and with a row damaged at the
  /// start, inside and at the end of its buffers: the replay's reading hands out the same
  /// steps as the general one, one buffer after another, and stops at the same step with the
  /// same message (the rows before the damaged one handed out first, none twice).
  func testRowsOverSeveralBuffersReadTheSameAsTheirColumns() throws {
    let rows = TraceReader.rowCaptureRows
    let last = 3 * rows + 8
    let damagedSteps = [rows - 1, rows, rows + 1, 2 * rows + 5, last]
    let edits =
      [""]
      + damagedSteps.map { "UPDATE steps SET wall = 'noon' WHERE step = \($0)" }
      + damagedSteps.map { "UPDATE steps SET mono_ns = 'soon' WHERE step = \($0)" }
      // The last row deleted leaves a shorter index, not a hole: no error.
      + damagedSteps.dropLast().map { "DELETE FROM steps WHERE step = \($0)" }
    for edit in edits {
      let directory = try TemporaryDirectory()
      let path = directory.path("t.rewind")
      let steps = try writeLongTrace(at: path, through: last)
      if !edit.isEmpty {
        let editor = try TraceEditor(path: path)
        try editor.execute(edit)
        editor.close()
      }
      let lean = lean(path)
      XCTAssertEqual(lean, general(path), edit)
      if edit.isEmpty {
        XCTAssertEqual(lean.count, steps.count)
      } else {
        XCTAssertEqual(lean.last?.hasPrefix("error: "), true, edit)
      }
    }
  }

  /// A sorted `steps` table of more rows than the row capture holds, in either order: SQLite
  /// calls the capture for every row before it returns the first, on a full buffer after
  /// the first rows. The reading notices and reads the columns: the same steps, and the same
  /// error at a damaged row.
  func testMoreRowsThanABufferReturnedAfterASortReadTheSameAsTheirColumns() throws {
    let last = 2 * TraceReader.rowCaptureRows + 8
    for order in ["ASC", "DESC"] {
      for damage in ["", "UPDATE steps SET wall = 'noon' WHERE step = 100"] {
        let directory = try TemporaryDirectory()
        let path = directory.path("t.rewind")
        let steps = try writeLongTrace(at: path, through: last)
        try remakeStepsTable(at: path, order: order, then: damage)
        let lean = lean(path)
        XCTAssertEqual(lean, general(path), "\(order) \(damage)")
        XCTAssertEqual(lean.count, damage.isEmpty ? steps.count : 101, "\(order) \(damage)")
      }
    }
  }

  /// A scan inside the body of another (the row capture is in use) reads its columns; both
  /// hand out their steps.
  func testAScanInsideAScanHandsOutBothRanges() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let steps = try writeTrace(at: path)
    let reader = try TraceReader(path: path)
    var outer: [Int] = []
    var inner: [Int] = []
    try reader.forEachStepLine(from: 0, to: .max) { entry, _ in
      outer.append(entry.step)
      if entry.step == 3 {
        do {
          try reader.forEachStepLine(from: 12, to: 14) { entry, _ in
            inner.append(entry.step)
            return true
          }
        } catch {
          XCTFail("\(error)")
        }
      }
      return true
    }
    XCTAssertEqual(outer, steps)
    XCTAssertEqual(inner, [12, 13, 14])
    XCTAssertNotNil(reader.rowCapture)
  }

  /// Each damaged column, and each id that names nothing, stops both readers at the same step
  /// with the same message.
  func testADamagedColumnStopsBothAtTheSameStepWithTheSameMessage() throws {
    let edits: [(sql: String, message: String)] = [
      ("UPDATE steps SET mono_ns = 'soon' WHERE step = 4", "mono_ns is 'soon', not an integer"),
      ("UPDATE steps SET wall = 'noon' WHERE step = 5", "wall is 'noon', not a time"),
      ("UPDATE steps SET origin = 'x' WHERE step = 5", "origin is 'x', not an integer"),
      ("UPDATE steps SET action = 99 WHERE step = 7", "action 99 is not in actions"),
      ("UPDATE steps SET changed = 77 WHERE step = 8", "changed path set 77 is not in path_sets"),
      ("UPDATE steps SET state_hash = 2.5 WHERE step = 3", "state_hash is 2.5, not an integer"),
      ("UPDATE steps SET reducer_ns = -1 WHERE step = 2", "reducer_ns is -1, outside 0…"),
      ("UPDATE steps SET origin = -100 WHERE step = 9", "names a send of step 97"),
      ("DELETE FROM steps WHERE step = 14", "step 14 is missing from the index"),
      (
        "UPDATE steps SET step = 281474976710657 WHERE step = 24",
        "step 281474976710657 is outside 0…281474976710656"
      ),
    ]
    for edit in edits {
      let directory = try TemporaryDirectory()
      let path = directory.path("t.rewind")
      _ = try writeTrace(at: path)
      let editor = try TraceEditor(path: path)
      try editor.execute(edit.sql)
      editor.close()
      let lean = lean(path)
      XCTAssertEqual(lean, general(path), edit.sql)
      XCTAssertTrue(lean.last?.contains(edit.message) == true, "\(edit.sql): \(lean.last ?? "")")
      let typed = typedReplay(path)
      XCTAssertEqual(typed, general(path, actionPaths: true), edit.sql)
      XCTAssertEqual(typed.count, lean.count, edit.sql)
      XCTAssertEqual(typed.last?.contains(edit.message), true, edit.sql)
    }
  }

  /// Seeded damage of every kind `TraceCorruption` makes (rows renumbered, duplicated or
  /// deleted, columns of every type, interned tables, chunks): both readers hand out the
  /// same steps and stop on the same error, whatever the damage.
  func testSeededDamageReadsTheSameBothWays() throws {
    let directory = try TemporaryDirectory()
    let base = directory.path("base.rewind")
    _ = try writeTrace(at: base)
    var stopped = 0
    for seed in UInt64(1)...300 {
      let path = directory.path("v\(seed).rewind")
      try FileManager.default.copyItem(atPath: base, toPath: path)
      let edits = try TraceCorruption(seed: seed).apply(to: path)
      let lean = lean(path)
      XCTAssertEqual(lean, general(path), "seed \(seed): \(edits)")
      XCTAssertEqual(typedReplay(path), general(path, actionPaths: true), "seed \(seed): \(edits)")
      if lean.last?.hasPrefix("error: ") == true { stopped += 1 }
      try FileManager.default.removeItem(atPath: path)
    }
    // Most damage is met on the way; the comparison above is not between two empty lists.
    XCTAssertGreaterThan(stopped, 100)
  }
}

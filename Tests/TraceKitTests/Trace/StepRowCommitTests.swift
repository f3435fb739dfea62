import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer inserts the `steps` rows at the next commit, `stepRowsPerInsert` to a
/// statement and the rest one by one: each commit shows exactly the rows of the steps before
/// it, with every column as the step gave it.
final class StepRowCommitTests: XCTestCase {
  /// The `steps` rows as a second connection sees them, every column as text.
  func rows(_ path: String) throws -> [String] {
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let statement = try database.prepare(
      """
      SELECT step, mono_ns, typeof(wall), wall, origin, action, changed, state_hash,
        reducer_ns FROM steps ORDER BY step
      """)
    var rows: [String] = []
    while try statement.step() {
      rows.append((0..<9).map { statement.text(at: $0) }.joined(separator: " "))
    }
    return rows
  }

  func wallTime(_ step: Int) -> Double {
    // Every seventh step's wall time is off the monotonic clock's by a quarter second.
    1_000 + Double(step) / 1_000 + (step % 7 == 0 ? 0.25 : 0)
  }

  /// The row step `step` of the run below stores.
  func expected(_ step: Int) -> String {
    let action = step == 0 ? 0 : (step % 2 == 1 ? 1 : 2)
    let changed = step == 0 ? 0 : 1 + (step - 1) % 3
    let wall: String
    if step == 0 {
      wall = "real 1000.0"
    } else {
      // How the writer stores a wall time (tested on its own); the rows must hold it.
      let columns = TraceWriter.wallColumns(
        wallTime(step), monotonicNanos: UInt64(step) * 1_000_000, start: 1_000,
        isFirst: false)
      wall = columns.time.map { "real \($0)" } ?? "integer \(columns.offset)"
    }
    let origin = step == 0 ? 0 : (step % 5 == 0 ? 2 : 1)
    // Step 0 is the initial state's: its hash, no reducer time.
    let hash = step == 0 ? Int64(bitPattern: TraceValue.int(0).stableHash) : Int64(step * 3)
    let reducer = step == 0 ? 0 : step + 1
    return "\(step) \(step * 1_000_000) \(wall) \(origin) \(action) \(changed) \(hash)"
      + " \(reducer)"
  }

  func testEachCommitShowsTheRowsOfTheStepsBeforeItWithEveryColumn() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    let effect = UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!
    // 32 rows a statement: 77 steps before the first flush are two full statements and 13
    // rows one by one; 64 before the second, two full ones; 1 before the close.
    let flushes = [77: true, 141: true]
    for step in 1...142 {
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000_000,
          wallTime: wallTime(step),
          origin: step % 5 == 0 ? .effect(effect) : .user,
          actionPath: step % 2 == 0 ? "a" : "b", action: .null, changes: [],
          changedPaths: [["x"], ["y"], ["x", "y"]][(step - 1) % 3],
          stateHash: UInt64(step * 3), reducerNanos: UInt64(step + 1)),
        state: .int(Int64(step)))
      if flushes[step] != nil {
        try writer.flush()
        XCTAssertEqual(try rows(path), (0...step).map(expected), "after step \(step)")
      }
    }
    XCTAssertEqual(try rows(path).count, 142, "step 142 waits for the commit")
    try writer.close()
    XCTAssertEqual(try rows(path), (0...142).map(expected))
  }
}

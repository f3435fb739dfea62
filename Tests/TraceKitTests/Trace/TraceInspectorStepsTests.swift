import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Steps an attached inspector made without an action — a jump to an earlier step's state,
/// going on from it — are stored as origins of their own and read back exactly.
final class TraceInspectorStepsTests: XCTestCase {
  private func count(_ value: Int) -> TraceValue {
    .object([TraceField("count", .int(Int64(value)))])
  }

  private func record(_ step: Int, _ origin: StepOrigin, count: Int, path: String) -> StepRecord
  {
    StepRecord(
      step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_780_000_000 + Double(step),
      origin: origin, actionPath: path,
      action: path.isEmpty ? .null : .enumCase(path, []),
      changes: [.set(TracePath([.key("count")]), .int(Int64(count)))],
      changedPaths: ["count"], stateHash: self.count(count).stableHash, reducerNanos: 0)
  }

  /// 1 plus, 2 plus, 3 jump to 1, 4 plus sent by the inspector, 5 continue from 1.
  private func writeTrace(at path: String) throws {
    let writer = try TraceWriter(
      path: path,
      metadata: TraceMetadata(rootReducer: "Counter", stateType: "S", actionType: "A"),
      initialState: count(0))
    try writer.append(record(1, .user, count: 1, path: "plus"), state: count(1))
    try writer.append(record(2, .user, count: 2, path: "plus"), state: count(2))
    try writer.append(record(3, .jump(toStep: 1), count: 1, path: ""), state: count(1))
    try writer.append(record(4, .inspector, count: 2, path: "plus"), state: count(2))
    var continued = record(5, .continued(fromStep: 1), count: 2, path: "")
    continued.changes = []
    continued.changedPaths = []
    try writer.append(continued, state: count(2))
    try writer.close()
  }

  func testJumpsAndContinuesAreReadBackAndTheIndexViewNamesThem() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeTrace(at: path)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.rows(from: 0, to: 5).map(\.origin),
      [.initial, .user, .user, .jump(toStep: 1), .inspector, .continued(fromStep: 1)])
    XCTAssertEqual(try reader.state(at: 3), count(1))
    XCTAssertEqual(try reader.state(at: 5), count(2))
    XCTAssertEqual(try reader.action(at: 3), .null)
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    let statement = try db.prepare("SELECT origin, action_path FROM step_index ORDER BY step")
    defer { statement.reset() }
    var origins: [String] = []
    while try statement.step() {
      origins.append(statement.text(at: 0) + " " + statement.text(at: 1))
    }
    XCTAssertEqual(
      origins,
      ["initial ", "user plus", "user plus", "jump:1 ", "inspector plus", "continue:1 "])
  }

  func testAnInspectorStepNamingALaterStepIsDamage() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeTrace(at: path)
    let db = try SQLiteConnection(path: path, mode: .readWrite)
    try db.execute("UPDATE origins SET effect_id = 'jump:7' WHERE effect_id = 'jump:1'")
    try db.execute("UPDATE origins SET effect_id = 'continue:x' WHERE effect_id = 'continue:1'")
    let reader = try TraceReader(path: path)
    XCTAssertThrowsError(try reader.row(at: 3)) { error in
      XCTAssertEqual(
        "\(error)",
        "\(path): step 3: index row is damaged: origin 2 names a jump to step 7, not an "
          + "earlier step")
    }
    XCTAssertThrowsError(try reader.row(at: 5)) { error in
      XCTAssertEqual(
        "\(error)",
        "\(path): step 5: index row is damaged: origin 3 has effect id 'continue:x', not a UUID")
    }
  }

  func testStorageTextRoundTrips() {
    for origin: StepOrigin in [.jump(toStep: 0), .jump(toStep: 12), .continued(fromStep: 3)] {
      XCTAssertEqual(StepOrigin(storageText: origin.storageText), origin)
    }
    XCTAssertNil(StepOrigin(storageText: "jump:-1"))
    XCTAssertEqual(StepOrigin.jump(toStep: 12).inspectorStepText, "jump to step 12")
    XCTAssertEqual(StepOrigin.continued(fromStep: 3).inspectorStepText, "continue from step 3")
  }
}

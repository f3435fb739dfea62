import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer inserts an effect's row at the next commit, with its end when the end came
/// first: what each commit makes visible is the row an insert at the start and an update at
/// the end made, in start order.
final class EffectRowCommitTests: XCTestCase {
  func id(_ n: Int) -> UUID { UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")! }

  /// The effects' rows, in rowid order, as a second connection sees them.
  func rows(_ path: String) throws -> [String] {
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let statement = try database.prepare(
      """
      SELECT rowid, id, started_by_step, end_ns, outcome, cancel_reason, cancelled_by_step,
        ended_after_step FROM effects ORDER BY rowid
      """)
    var rows: [String] = []
    while try statement.step() {
      rows.append(
        (0..<8).map { statement.isNull(at: $0) ? "nil" : statement.text(at: $0) }
          .joined(separator: " "))
    }
    return rows
  }

  func makeWriter(_ path: String) throws -> TraceWriter {
    try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
  }

  func testEachCommitShowsTheRowsOfTheStartsAndEndsBeforeIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try makeWriter(path)
    try writer.effectStarted(EffectRecord(id: id(3), startedByStep: 1, startNanos: 10))
    try writer.effectStarted(EffectRecord(id: id(1), startedByStep: 1, startNanos: 20))
    try writer.effectStarted(
      EffectRecord(id: id(2), startedByStep: 1, startNanos: 30, sentSteps: [1]))
    try writer.effectEnded(
      id: id(1), endNanos: 40, outcome: .cancelled(reason: "cancelInFlight", byStep: 1),
      endedAfterStep: 0)
    try writer.effectSent(id: id(3), step: 1)
    XCTAssertEqual(try rows(path), [], "nothing before the commit")

    try writer.flush()
    XCTAssertEqual(
      try rows(path),
      [
        "1 00000000-0000-0000-0000-000000000003 1 nil running nil nil nil",
        "2 00000000-0000-0000-0000-000000000001 1 40 cancelled cancelInFlight 1 0",
        "3 00000000-0000-0000-0000-000000000002 1 nil running nil nil nil",
      ])

    try writer.effectEnded(id: id(3), endNanos: 50, outcome: .finished, endedAfterStep: 1)
    try writer.effectStarted(EffectRecord(id: id(4), startedByStep: 1, startNanos: 60))
    try writer.effectStarted(EffectRecord(id: id(5), startedByStep: 1, startNanos: 70))
    try writer.effectEnded(id: id(5), endNanos: 80, outcome: .finished, endedAfterStep: 1)
    try writer.flush()
    XCTAssertEqual(
      try rows(path),
      [
        "1 00000000-0000-0000-0000-000000000003 1 50 finished nil nil 1",
        "2 00000000-0000-0000-0000-000000000001 1 40 cancelled cancelInFlight 1 0",
        "3 00000000-0000-0000-0000-000000000002 1 nil running nil nil nil",
        "4 00000000-0000-0000-0000-000000000004 1 nil running nil nil nil",
        "5 00000000-0000-0000-0000-000000000005 1 80 finished nil nil 1",
      ])
    XCTAssertThrowsError(
      try writer.effectEnded(id: id(6), endNanos: 90, outcome: .finished, endedAfterStep: 1)
    ) { error in
      XCTAssertEqual(
        "\(error)", "\(path): effect 00000000-0000-0000-0000-000000000006 ended but never started")
    }
  }

  func testCloseInsertsTheLastStartsBeforeMarkingTheRunningOnesUnfinished() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try makeWriter(path)
    try writer.effectStarted(EffectRecord(id: id(1), startedByStep: 0, startNanos: 10))
    try writer.effectStarted(EffectRecord(id: id(2), startedByStep: 0, startNanos: 20))
    try writer.effectEnded(id: id(2), endNanos: 30, outcome: .finished, endedAfterStep: 0)
    try writer.close()
    XCTAssertEqual(
      try rows(path),
      [
        "1 00000000-0000-0000-0000-000000000001 0 nil unfinished nil nil nil",
        "2 00000000-0000-0000-0000-000000000002 0 30 finished nil nil 0",
      ])
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().effectCount, 2)
  }
}

import ComposableCore
import ComposableTesting
import Foundation
import TraceKit
import XCTest

import TraceRecorder

/// The API a generated test reads recorded values through: values decoded into the type the
/// compiler needs, changes applied at recorded paths, dependency values served in order.
final class RecordedValueTests: XCTestCase {
  enum Filter: String, Codable, Equatable { case all, active }

  struct Row: Codable, Equatable, Identifiable {
    var id: UUID
    var title: String
    var done = false
  }

  struct State: Codable, Equatable {
    var filter = Filter.all
    var rows: [Row] = []
    var detail: Row?
  }

  let first = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

  func testALiteralDecodesAsTheTypeTheContextNeeds() throws {
    let filter: Filter = try .recorded("active")
    XCTAssertEqual(filter, .active)
    let id: UUID = try .recorded("00000000-0000-0000-0000-000000000001")
    XCTAssertEqual(id, first)
    let optional: Filter? = try .recorded("all")
    XCTAssertEqual(optional, .all)
    let row: Row = try .recorded(
      .json(#"{"id":"00000000-0000-0000-0000-000000000001","title":"Milk","done":true}"#))
    XCTAssertEqual(row, Row(id: first, title: "Milk", done: true))
    XCTAssertThrowsError(try Filter.recorded("paused")) { error in
      XCTAssertTrue(
        "\(error)".hasPrefix(#"the recorded value "paused" does not decode as Filter"#))
    }
    XCTAssertThrowsError(try Row.recorded(.json("{"))) { error in
      XCTAssertTrue("\(error)".hasPrefix("{ is not a recorded value"))
    }
  }

  func testChangesApplyAtRecordedPaths() throws {
    var state = State()
    try state.recorded(
      insert: "rows[0]",
      .json(#"{"id":"00000000-0000-0000-0000-000000000001","title":"Milk","done":false}"#))
    try state.recorded(set: #"rows[id: "00000000-0000-0000-0000-000000000001"].done"#, true)
    try state.recorded(set: "detail", .json(#"{"id":"\#(first)","title":"Tea","done":false}"#))
    try state.recorded(set: "detail.title", "Coffee")
    XCTAssertEqual(
      state,
      State(
        filter: .all, rows: [Row(id: first, title: "Milk", done: true)],
        detail: Row(id: first, title: "Coffee")))
    try state.recorded(remove: #"rows[id: "00000000-0000-0000-0000-000000000001"]"#)
    XCTAssertEqual(state.rows, [])
    XCTAssertThrowsError(try state.recorded(set: "rows[id", true)) { error in
      XCTAssertTrue("\(error)".hasPrefix("rows[id is not a recorded path"))
    }
    XCTAssertThrowsError(try state.recorded(set: "rows[3].done", true)) { error in
      XCTAssertTrue("\(error)".hasPrefix("the recorded change at rows[3].done does not fit"))
    }
  }

  func testDependencyValuesAreServedInOrderAndOverreadingIsReported() async {
    let uuid = UUIDGenerator.recorded("00000000-0000-0000-0000-000000000001")
    XCTAssertEqual(uuid(), first)
    let date = DateGenerator.recorded(800_265_600.5)
    XCTAssertEqual(date(), Date(timeIntervalSinceReferenceDate: 800_265_600.5))
    let random = WithRandomNumberGenerator.recorded(7, -1)
    XCTAssertEqual(random.next(), 7)
    XCTAssertEqual(random.next(), UInt64.max)
    let issues = await expectIssues {
      _ = uuid()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        "The test read more uuid values than the trace recorded (1): the feature now reads "
          + "uuid where it did not when it was recorded."
      ])
  }
}

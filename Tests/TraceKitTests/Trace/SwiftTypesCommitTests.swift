import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The writer stores the Swift type table at the commit after it was set: each commit holds
/// the last table set before it, in exactly its JSON text, and a table set while nothing else
/// is pending is committed all the same.
final class SwiftTypesCommitTests: XCTestCase {
  /// The `swift_types` value a second connection sees, nil when there is none.
  func storedText(_ path: String) throws -> String? {
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let statement = try database.prepare("SELECT value FROM meta WHERE key = 'swift_types'")
    return try statement.step() ? statement.text(at: 0) : nil
  }

  func table(_ field: String, _ type: String) -> SwiftTypeTable {
    SwiftTypeTable(
      state: [
        "": SwiftTypeEntry(type: "App.State", kind: .struct),
        field: SwiftTypeEntry(type: type, kind: .integer),
      ],
      action: ["": SwiftTypeEntry(type: "App.Action", kind: .enum, cases: ["tap"])])
  }

  func step(_ step: Int) -> StepRecord {
    StepRecord(
      step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_000, origin: .user,
      actionPath: "tap", action: .null, changes: [], changedPaths: [], stateHash: 0,
      reducerNanos: 0)
  }

  func testEachCommitStoresTheLastTableSetBeforeIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    let first = #"{"action":{"":{"cases":["tap"],"kind":"enum","type":"App.Action"}},"#
      + #""state":{"":{"kind":"struct","type":"App.State"},"count":{"kind":"integer","#
      + #""type":"Int"}}}"#
    let second = #"{"action":{"":{"cases":["tap"],"kind":"enum","type":"App.Action"}},"#
      + #""state":{"":{"kind":"struct","type":"App.State"},"total":{"kind":"integer","#
      + #""type":"Int64"}}}"#
    XCTAssertNil(try storedText(path))

    // Set, then a step: neither is committed before the flush.
    try writer.setSwiftTypes(table("count", "Int"))
    try writer.append(step(1), state: .int(1))
    XCTAssertNil(try storedText(path))
    try writer.flush()
    XCTAssertEqual(try storedText(path), first)

    // Two tables set between commits: the commit stores the second.
    try writer.setSwiftTypes(table("count", "Int8"))
    try writer.append(step(2), state: .int(2))
    try writer.setSwiftTypes(table("total", "Int64"))
    XCTAssertEqual(try storedText(path), first)
    try writer.flush()
    XCTAssertEqual(try storedText(path), second)

    // A table set with nothing else pending: the flush opens a transaction for it.
    try writer.setSwiftTypes(table("count", "Int"))
    try writer.flush()
    XCTAssertEqual(try storedText(path), first)

    // A commit with no table set keeps the one stored; the close stores one set just before.
    try writer.append(step(3), state: .int(3))
    try writer.flush()
    XCTAssertEqual(try storedText(path), first)
    try writer.setSwiftTypes(table("total", "Int64"))
    try writer.close()
    XCTAssertEqual(try storedText(path), second)
    XCTAssertEqual(try TraceReader(path: path).swiftTypes(), table("total", "Int64"))
  }

  func testAWriterDroppedWithoutCloseCommitsTheTableSetLast() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    var writer: TraceWriter? = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    try writer?.setSwiftTypes(table("count", "Int"))
    XCTAssertNil(try storedText(path))
    writer = nil
    XCTAssertEqual(try TraceReader(path: path).swiftTypes(), table("count", "Int"))
  }
}

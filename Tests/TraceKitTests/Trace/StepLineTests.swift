import XCTest

@testable import TraceKit

final class StepLineTests: XCTestCase {
  func line(_ text: String, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    try Array(text.utf8).withUnsafeBytes { try body($0) }
  }

  func testWrittenChangesAreTheBytesOfTheModelsJSONForm() throws {
    let changes: [TraceChange] = [
      .set(try TracePath(parsing: "todos[id: 3].title"), .string("a,b}\"]")),
      .remove(try TracePath(parsing: "path[2]")),
      .insert(try TracePath(parsing: "todos[0]"), .object([TraceField("$id", .int(1))])),
    ]
    var encoder = StepLine.Encoder()
    for change in changes + changes {
      var mine: [UInt8] = []
      encoder.writeChange(change, into: &mine)
      var model: [UInt8] = []
      change.jsonValue.writeJSON(into: &model)
      XCTAssertEqual(String(decoding: mine, as: UTF8.self), String(decoding: model, as: UTF8.self))
    }
  }

  func testChangesAreFoundPastAnyActionWithoutParsingIt() throws {
    let action: TraceValue = .enumCase(
      "edit",
      [TraceField("_0", .object([
        TraceField("text", .string("x,\"changes\":[1]} \\ ]")),
        TraceField("list", .array([.int(-1), .double(2.5), .null, .bool(true), .array([])])),
      ]))])
    let record = StepRecord(
      step: 12, monotonicNanos: 0, wallTime: 0, origin: .user, actionPath: "edit",
      action: action, changes: [.set(try TracePath(parsing: "a.b"), .string("]"))],
      changedPaths: ["a.b"], stateHash: 0, reducerNanos: 0,
      dependencies: [DependencyRead(key: "uuid", value: .string("u"))])
    var bytes: [UInt8] = []
    var encoder = StepLine.Encoder()
    StepLine.write(record, into: &bytes, encoder: &encoder)
    XCTAssertEqual(bytes.last, UInt8(ascii: "\n"))
    try bytes.dropLast().withUnsafeBytes { line in
      XCTAssertEqual(StepLine.peekStep(line), 12)
      XCTAssertEqual(try StepLine.changes(parsing: line), record.changes)
      let full = try StepLine(parsing: line)
      XCTAssertEqual(full.action, action)
      XCTAssertEqual(full.changes, record.changes)
      XCTAssertEqual(full.dependencies, record.dependencies)
    }
  }

  func testSkipValueRejectsUnbalancedInput() {
    for text in ["[1,2", "{\"a\":\"b}", "]", "\"open"] {
      line(text) { XCTAssertNil(StepLine.skipValue($0, from: 0), text) }
    }
    line("[1,{\"k\":[\"]\"]}],x") { XCTAssertEqual(StepLine.skipValue($0, from: 0), 15) }
    line("123,") { XCTAssertEqual(StepLine.skipValue($0, from: 0), 3) }
  }
}

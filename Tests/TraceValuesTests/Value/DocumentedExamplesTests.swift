import TraceValues
import XCTest

/// The examples in the doc comments, run: a doc example that no longer prints what it says is
/// a bug in the documentation.
final class DocumentedExamplesTests: XCTestCase {
  func testTraceDiffExample() throws {
    let old = try TraceValue(json: #"{"todos":[{"id":3,"title":"a"}],"count":1}"#)
    let new = try TraceValue(
      json: #"{"todos":[{"id":4,"title":"b"},{"id":3,"title":"c"}],"count":1}"#)
    XCTAssertEqual(
      TraceDiff.changes(from: old, to: new).map(\.description),
      [#"insert todos[0] (id: 4, title: "b")"#, #"set todos[id: 3].title "c""#])
  }

  func testEncoderExample() throws {
    enum Mode: Codable { case loading, loaded(count: Int) }
    struct State: Codable {
      var title = "Inbox"
      var tags = ["b": 2, "a": 1]
      var mode = Mode.loading
    }
    XCTAssertEqual(
      try TraceValueEncoder().encode(State()).description,
      #"(title: "Inbox", tags: (a: 1, b: 2), mode: .loading)"#)
  }

  func testDecoderExample() throws {
    struct Todo: Codable, Equatable { var id: Int; var title: String }
    let tree = try TraceValue(json: #"{"id":3,"title":"Buy milk"}"#)
    XCTAssertEqual(
      try TraceValueDecoder().decode(Todo.self, from: tree), Todo(id: 3, title: "Buy milk"))
  }

  func testValueAndJSONExamples() throws {
    var buffer: [UInt8] = []
    TraceValue.object([TraceField("a", .double(1)), TraceField("$b", .null)])
      .writeJSON(into: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), #"{"a":1.0,"$$b":null}"#)
    XCTAssertEqual(
      TraceValue.enumCase("loaded", [TraceField("_0", .int(3))]).jsonString,
      #"{"$case":"loaded","_0":3}"#)
    XCTAssertEqual(try TraceValue(json: Array(#"{"$bytes":"AQI="}"#.utf8)), .bytes([1, 2]))
    XCTAssertEqual(try TraceValue(json: "[1, 2.5]").description, "[1, 2.5]")
    XCTAssertEqual(String(TraceValue.int(1).stableHash, radix: 16), "41525b709a47b22b")
    let value: TraceValue = .object([
      TraceField("count", .int(1)), TraceField("mode", .enumCase("loading", [])),
    ])
    XCTAssertEqual(value.description, "(count: 1, mode: .loading)")
  }

  func testPathAndChangeExamples() throws {
    XCTAssertEqual(
      TracePath([.key("todos"), .id(.int(3)), .key("title")]).description, "todos[id: 3].title")
    XCTAssertEqual(TracePath([.key("a b"), .index(2)]).description, #"["a b"][2]"#)
    XCTAssertEqual(
      try TracePath(parsing: #"todos[id: "A1"].title"#).components,
      [.key("todos"), .id(.string("A1")), .key("title")])
    let state = try TraceValue(json: #"{"todos":[{"id":3,"title":"Buy milk"}]}"#)
    XCTAssertEqual(
      state.value(at: try TracePath(parsing: "todos[id: 3].title"))?.description, #""Buy milk""#)
    let change = TraceChange.set(try TracePath(parsing: "todos[id: 3].title"), .string("b"))
    XCTAssertEqual(change.description, #"set todos[id: 3].title "b""#)
    XCTAssertEqual(
      change.jsonValue.jsonString, #"{"op":"set","path":"todos[id: 3].title","value":"b"}"#)
  }

  func testErrorExamples() {
    XCTAssertThrowsError(try TraceValue(json: "[1, 2")) { error in
      XCTAssertEqual("\(error)", "invalid trace JSON at byte 5: expected ',' or ']' in array")
    }
    XCTAssertThrowsError(try TracePath(parsing: "todos[id 3]")) { error in
      XCTAssertEqual(
        "\(error)", #"invalid path "todos[id 3]" at column 10: expected ':' after 'id'"#)
    }
    var value = TraceValue.array([])
    XCTAssertThrowsError(try TraceDiff.apply([.remove(TracePath([.index(2)]))], to: &value)) {
      error in
      XCTAssertEqual(
        "\(error)",
        "cannot apply remove at [2]: index 2 is out of range for an array of 0 elements")
    }
    XCTAssertThrowsError(try TraceChange(jsonValue: .object([]))) { error in
      XCTAssertEqual("\(error)", #"invalid trace change: expected a string "op""#)
    }
  }

  func testReflectingExample() {
    final class Session {
      var user = "blob"
      var retries = 2
    }
    XCTAssertEqual(
      TraceValue(reflecting: Session()).description, #"Session(user: "blob", retries: 2)"#)
  }
}

import TraceValues
import XCTest

final class TracePathTests: XCTestCase {
  func testPrintsPathsAsAPersonTypesThem() {
    XCTAssertEqual(TracePath.root.description, ".")
    XCTAssertEqual(TracePath([.key("splash"), .key("isLoading")]).description, "splash.isLoading")
    XCTAssertEqual(
      TracePath([.key("todos"), .id(.int(3)), .key("title")]).description, "todos[id: 3].title")
    XCTAssertEqual(
      TracePath([.key("todos"), .id(.string("A1B2"))]).description, #"todos[id: "A1B2"]"#)
    XCTAssertEqual(TracePath([.key("path"), .index(2)]).description, "path[2]")
    XCTAssertEqual(TracePath([.index(0), .key("a")]).description, "[0].a")
    XCTAssertEqual(
      TracePath([.key("a b"), .key("$x"), .key("2"), .key("")]).description,
      #"["a b"]["$x"]["2"][""]"#)
  }

  func testParsesEveryForm() throws {
    XCTAssertEqual(try TracePath(parsing: ""), .root)
    XCTAssertEqual(try TracePath(parsing: "."), .root)
    XCTAssertEqual(
      try TracePath(parsing: ".splash.isLoading"), TracePath([.key("splash"), .key("isLoading")]))
    XCTAssertEqual(
      try TracePath(parsing: #"todos[ id : "A1" ][12]["a.b"]._x9"#),
      TracePath([.key("todos"), .id(.string("A1")), .index(12), .key("a.b"), .key("_x9")]))
    XCTAssertEqual(
      try TracePath(parsing: #"xs[id: {"$bytes":"AQ=="}]"#),
      TracePath([.key("xs"), .id(.bytes([1]))]))
    XCTAssertEqual(try TracePath(parsing: "xs[id: -7]"), TracePath([.key("xs"), .id(.int(-7))]))
  }

  func testParseErrorsSayTheColumnAndWhatWasExpected() {
    let cases: [(String, Int, String)] = [
      ("a..b", 3, "a key name or '[' after '.'"),
      ("a.", 3, "a key name or '[' after '.'"),
      ("1a", 1, "a key name or '['"),
      ("todos[id 3]", 10, "':' after 'id'"),
      ("todos[x]", 7, "'\"', a digit or 'id:' after '['"),
      ("todos[3", 8, "']'"),
      (#"["é"].x["#, 9, "'\"', a digit or 'id:' after '['"),
      ("a b", 2, "'.', '[' or the end of the path"),
      ("xs[id: tru]", 8, "a JSON value (expected 'true')"),
      ("xs[99999999999999999999]", 4, "an index that fits in Int"),
    ]
    for (text, column, expected) in cases {
      XCTAssertThrowsError(try TracePath(parsing: text), text) { error in
        XCTAssertEqual(
          error as? TracePathError,
          TracePathError(text: text, column: column, expected: expected), text)
      }
    }
    XCTAssertEqual(
      TracePathError(text: "a..b", column: 3, expected: "a key name or '[' after '.'")
        .description,
      #"invalid path "a..b" at column 3: expected a key name or '[' after '.'"#)
  }

  func testRandomPathsRoundTripThroughText() throws {
    var random = RandomTraceValue(seed: 77)
    for _ in 0..<2_000 {
      let components: [TracePath.Component] = (0..<random.int(0..<5)).map { _ in
        switch random.int(0..<3) {
        case 0: .key(random.key())
        case 1: .index(random.int(0..<1000))
        default: .id(random.scalar())
        }
      }
      let path = TracePath(components)
      XCTAssertEqual(try TracePath(parsing: path.description), path, path.description)
    }
  }

  func testValueAtFollowsKeysIndicesIDsAndEnumCases() throws {
    let state = try TraceValue(
      json: """
        {"splash":{"isLoading":true},
         "todos":[{"id":3,"title":"Buy milk"},{"id":"A1","title":"x"}],
         "destination":{"$case":"childDetail","_0":{"name":"Blob"}},
         "action":{"$case":"dateSelected","date":"2026-05-12","animated":false},
         "wrapped":{"$reflected":"Foo","value":{"x":[1,2,3]}}}
        """)
    func at(_ text: String) throws -> TraceValue? { state.value(at: try TracePath(parsing: text)) }
    XCTAssertEqual(try at("splash.isLoading"), .bool(true))
    XCTAssertEqual(try at("todos[id: 3].title"), .string("Buy milk"))
    XCTAssertEqual(try at(#"todos[id: "A1"].title"#), .string("x"))
    XCTAssertEqual(try at("todos[1].id"), .string("A1"))
    XCTAssertEqual(try at("destination.childDetail.name"), .string("Blob"))
    XCTAssertEqual(try at("action.dateSelected.date"), .string("2026-05-12"))
    XCTAssertEqual(try at("wrapped.x[2]"), .int(3))
    XCTAssertEqual(try at("."), state)
    XCTAssertNil(try at("destination.other"))
    XCTAssertNil(try at("todos[2]"))
    XCTAssertNil(try at("todos[id: 4]"))
    XCTAssertNil(try at("splash[0]"))
  }
}

import TraceValues
import XCTest

final class TraceValueDescriptionTests: XCTestCase {
  func testReadsLikeASwiftValue() {
    let state: TraceValue = .object([
      TraceField("count", .int(1)),
      TraceField("mode", .enumCase("loading", [])),
      TraceField(
        "todos",
        .array([.object([TraceField("id", .int(1)), TraceField("title", .string("a"))])])),
    ])
    XCTAssertEqual(state.description, #"(count: 1, mode: .loading, todos: [(id: 1, title: "a")])"#)
  }

  func testEveryCaseHasAOneLineForm() {
    let cases: [(TraceValue, String)] = [
      (.null, "nil"),
      (.bool(false), "false"),
      (.int(-3), "-3"),
      (.uint(.max), "18446744073709551615"),
      (.double(1), "1.0"),
      (.double(.nan), "nan"),
      (.double(-.infinity), "-inf"),
      (.bytes([]), "<0 bytes>"),
      (.bytes([1]), "<1 byte: 01>"),
      (.bytes([1, 2, 255]), "<3 bytes: 0102ff>"),
      (
        .bytes(Array(repeating: 0xAB, count: 33)),
        "<33 bytes: " + String(repeating: "ab", count: 32) + "…>"
      ),
      (.array([]), "[]"),
      (.object([]), "()"),
      (.object([TraceField("a b", .int(1)), TraceField("$x", .int(2))]), #"("a b": 1, "$x": 2)"#),
      (.enumCase("loaded", [TraceField("_0", .int(3))]), ".loaded(3)"),
      (
        .enumCase("pair", [TraceField("_0", .int(1)), TraceField("_1", .string("b"))]),
        #".pair(1, "b")"#
      ),
      (
        .enumCase("alert", [TraceField("title", .string("x")), TraceField("count", .int(2))]),
        #".alert(title: "x", count: 2)"#
      ),
      (.reflected(typeName: "Foo", .object([TraceField("a", .int(1))])), "Foo(a: 1)"),
      (.reflected(typeName: "Foo", .int(2)), "Foo(2)"),
    ]
    for (value, text) in cases {
      XCTAssertEqual(value.description, text)
    }
  }

  func testStringsAreQuotedWithControlCharactersEscaped() {
    let value = TraceValue.string("\u{1B}[31mred\u{1B}[0m \"q\" \\ \n\r\t\0\u{7F}\u{85}\u{2028}é😀")
    XCTAssertEqual(
      value.description,
      #""\u{1B}[31mred\u{1B}[0m \"q\" \\ \n\r\t\0\u{7F}\u{85}\u{2028}é😀""#)
  }

  func testWritesToAnyTextOutputStream() {
    var output = "state: "
    TraceValue.array([.int(1), .string("x")]).write(to: &output)
    XCTAssertEqual(output, #"state: [1, "x"]"#)
  }
}

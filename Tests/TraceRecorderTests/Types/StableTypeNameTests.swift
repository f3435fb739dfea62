import XCTest

@testable import TraceRecorder

/// `StableTypeName`: a type's name with each private context's process address replaced.
final class StableTypeNameTests: XCTestCase {
  private struct Inner {}

  func testANameWithoutAPrivateContextIsItself() {
    XCTAssertEqual(StableTypeName.of("Swift.Array<Swift.Int>"), "Swift.Array<Swift.Int>")
    XCTAssertEqual(StableTypeName.of(""), "")
    XCTAssertEqual(StableTypeName.of("(unknown context at"), "(unknown context at")
    XCTAssertEqual(StableTypeName.of("Café.Ünïcode<(x)>"), "Café.Ünïcode<(x)>")
  }

  func testEachPrivateContextIsReplaced() {
    XCTAssertEqual(
      StableTypeName.of("ComposableCore.(unknown context at $55c6d5523300).DateGeneratorKey"),
      "ComposableCore.(private).DateGeneratorKey")
    XCTAssertEqual(
      StableTypeName.of(
        "Swift.Dictionary<A.(unknown context at $1a2b).K, B.(unknown context at $ff).Ü>"),
      "Swift.Dictionary<A.(private).K, B.(private).Ü>")
    XCTAssertEqual(
      StableTypeName.of("(unknown context at $1)(unknown context at $2)"), "(private)(private)")
  }

  func testAContextWithoutItsEndKeepsWhatFollowsTheMarker() {
    XCTAssertEqual(StableTypeName.of("A.(unknown context at $12ab"), "A.(private)12ab")
    XCTAssertEqual(StableTypeName.of("A.(unknown context at $"), "A.(private)")
  }

  func testATypeIsNamedAsItsReflectedNameThenTheSameFromTheKeptNames() {
    let reflected = String(reflecting: Inner.self)
    XCTAssertTrue(reflected.contains("(unknown context at $"), reflected)
    let name = StableTypeName.of(Inner.self)
    XCTAssertEqual(name, StableTypeName.of(reflected))
    XCTAssertTrue(name.hasSuffix(".(private).Inner"), name)
    XCTAssertEqual(StableTypeName.of(Inner.self), name)
    XCTAssertEqual(StableTypeName.of([Int?].self), "Swift.Array<Swift.Optional<Swift.Int>>")
  }
}

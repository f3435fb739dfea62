import TraceValues
import XCTest

@testable import TraceRecorder

/// `ActionCasePath.path`: the nested case names joined by dots, entering a case only when
/// exactly one of its fields is a case.
final class ActionCasePathTests: XCTestCase {
  private func leafCase(_ name: String) -> TraceValue { .enumCase(name, []) }

  func testPaths() {
    XCTAssertEqual(ActionCasePath.path(of: .int(1)), "")
    XCTAssertEqual(ActionCasePath.path(of: leafCase("tap")), "tap")
    XCTAssertEqual(
      ActionCasePath.path(
        of: .enumCase(
          "rows",
          [
            TraceField("id", .int(3)),
            TraceField("action", .enumCase("element", [TraceField("_0", leafCase("toggled"))])),
          ])),
      "rows.element.toggled")
    // Two cases among the fields: the path stops at the outer case.
    XCTAssertEqual(
      ActionCasePath.path(
        of: .enumCase(
          "pair", [TraceField("a", leafCase("x")), TraceField("b", leafCase("y"))])),
      "pair")
    // An empty name keeps its place between the dots.
    XCTAssertEqual(
      ActionCasePath.path(
        of: .enumCase("", [TraceField("_0", .enumCase("", [TraceField("_0", leafCase("z"))]))])),
      "..z")
  }
}

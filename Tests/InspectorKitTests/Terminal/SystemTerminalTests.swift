import XCTest

@testable import InspectorKit

/// The environment is untrusted input too: colour follows no-color.org and `TERM`, and a width
/// from `COLUMNS` is taken within the widths the inspector lays out for.
final class SystemTerminalTests: XCTestCase {
  func testNoColorTurnsColourOffOnlyWhenItHasAValue() {
    XCTAssertTrue(SystemTerminal.allowsColour([:]))
    XCTAssertTrue(SystemTerminal.allowsColour(["NO_COLOR": ""]))
    XCTAssertFalse(SystemTerminal.allowsColour(["NO_COLOR": "1"]))
    XCTAssertFalse(SystemTerminal.allowsColour(["NO_COLOR": "0"]))
  }

  func testDumbTerminalGetsNoColour() {
    XCTAssertFalse(SystemTerminal.allowsColour(["TERM": "dumb"]))
    XCTAssertTrue(SystemTerminal.allowsColour(["TERM": "xterm-256color"]))
  }

  func testColumnsIsTakenWithinTheWidthsTheInspectorLaysOutFor() {
    XCTAssertEqual(SystemTerminal(environment: ["COLUMNS": "100"]).width, 100)
    XCTAssertEqual(SystemTerminal(environment: ["COLUMNS": "5"]).width, 20)
    XCTAssertEqual(SystemTerminal(environment: ["COLUMNS": "1025"]).width, 1_024)
    let huge = SystemTerminal(environment: ["COLUMNS": "9223372036854775807"])
    XCTAssertEqual(huge.width, 1_024)
    XCTAssertEqual(huge.lineWidth, 1_024)
  }
}

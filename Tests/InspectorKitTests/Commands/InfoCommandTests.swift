import XCTest

@testable import InspectorKit

final class InfoCommandTests: XCTestCase {
  func testImplausibleRecordedTimesPrintAsUnknownInsteadOfTrapping() {
    XCTAssertEqual(InfoCommand.timeSpan(.nan, 1), "? (the recorded times are not valid)")
    XCTAssertEqual(InfoCommand.timeSpan(0, .infinity), "? (the recorded times are not valid)")
    XCTAssertEqual(InfoCommand.timeSpan(10, 5), "1970-01-01 00:00:10Z … 00:00:05.000 (?)")
    XCTAssertEqual(NumberText.fixed(.infinity), "?")
    XCTAssertEqual(NumberText.dateTime(1e300), "?")
  }
}

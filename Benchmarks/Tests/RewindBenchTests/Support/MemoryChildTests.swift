import XCTest

@testable import rewind_bench

final class MemoryChildTests: XCTestCase {
  func testReportParsesTheChildLine() {
    let report = MemoryChild.Report(parsing: "before=100 peak=250 count=0\n")
    XCTAssertEqual(report?.before, 100)
    XCTAssertEqual(report?.peak, 250)
    XCTAssertNil(MemoryChild.Report(parsing: "before=100"))
  }
}

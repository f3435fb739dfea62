import XCTest

@testable import InspectorKit

final class NumberTextTests: XCTestCase {
  func testGroupedThousands() {
    XCTAssertEqual(NumberText.grouped(0), "0")
    XCTAssertEqual(NumberText.grouped(999), "999")
    XCTAssertEqual(NumberText.grouped(9_990), "9,990")
    XCTAssertEqual(NumberText.grouped(-1_000_000), "-1,000,000")
  }

  func testDurationsAndSizes() {
    XCTAssertEqual(NumberText.duration(nanos: 850), "850ns")
    XCTAssertEqual(NumberText.duration(nanos: 1_500_000), "1.5ms")
    XCTAssertEqual(NumberText.duration(nanos: 250_000_000), "250ms")
    XCTAssertEqual(NumberText.duration(nanos: 125_000_000_000), "2m 5s")
    XCTAssertEqual(NumberText.duration(nanos: 125_000 * 1_000_000_000), "1d 10h")
    XCTAssertEqual(NumberText.bytes(1000), "1000 B")
    XCTAssertEqual(NumberText.bytes(2_411_724), "2.3 MiB")
  }

  func testDatesAreUTC() {
    XCTAssertEqual(NumberText.dateTime(1_780_000_000), "2026-05-28 20:26:40Z")
    XCTAssertEqual(NumberText.dateTime(0), "1970-01-01 00:00:00Z")
    XCTAssertEqual(NumberText.clock(1_780_000_000.125), "20:26:40.125")
  }
}

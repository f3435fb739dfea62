import XCTest

@testable import rewind_bench

final class SamplesTests: XCTestCase {
  func testMedianAndQuartilesOfAnOddCount() {
    let samples = Samples([5, 1, 3, 2, 4])
    XCTAssertEqual(samples.sorted, [1, 2, 3, 4, 5])
    XCTAssertEqual(samples.median, 3)
    XCTAssertEqual(samples.lowerQuartile, 2)
    XCTAssertEqual(samples.upperQuartile, 4)
    XCTAssertEqual(samples.minimum, 1)
    XCTAssertEqual(samples.maximum, 5)
  }

  func testMedianOfAnEvenCountInterpolates() {
    XCTAssertEqual(Samples([4, 1, 3, 2]).median, 2.5)
  }

  func testSpreadIsInterquartileFromFiveSamplesAndMinMaxBelow() {
    let five = Spread(Samples([5, 1, 3, 2, 4]))
    XCTAssertEqual(five.kind, .interquartile)
    XCTAssertEqual([five.low, five.high], [2, 4])
    let two = Spread(Samples([7, 9]))
    XCTAssertEqual(two.kind, .minMax)
    XCTAssertEqual([two.low, two.high], [7, 9])
    XCTAssertEqual(two.count, 2)
  }

  func testTargetsAreMetAtTheirBound() {
    XCTAssertTrue(Target.atMost(200).isMet(by: 200))
    XCTAssertFalse(Target.atMost(200).isMet(by: 200.5))
    XCTAssertTrue(Target.atLeast(100).isMet(by: 100))
    XCTAssertFalse(Target.atLeast(100).isMet(by: 99))
    XCTAssertEqual(Target.atLeast(250_000).text(unit: "steps/s"), "≥ 250,000 steps/s")
    XCTAssertEqual(Target.atMost(5).text(unit: "ms"), "≤ 5.00 ms")
  }

  func testNumberFormat() {
    XCTAssertEqual(NumberFormat.compact(1_234_567), "1,234,567")
    XCTAssertEqual(NumberFormat.compact(380.4), "380")
    XCTAssertEqual(NumberFormat.compact(12.34), "12.3")
    XCTAssertEqual(NumberFormat.compact(0.0123), "0.0123")
    XCTAssertEqual(NumberFormat.compact(.nan), "n/a")
    XCTAssertEqual(NumberFormat.grouped(-1_000), "-1,000")
  }
}

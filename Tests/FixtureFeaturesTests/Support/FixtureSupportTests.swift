import ComposableCore
import FixtureSupport
import Foundation
import XCTest

final class FixtureSupportTests: XCTestCase {
  func testCalendarDayIsTheUTCDayOfADate() {
    XCTAssertEqual(CalendarDay(testNow), CalendarDay(year: 2026, month: 5, day: 12))
    // 23:59:59 UTC on 2026-05-12 is still the 12th, whatever the machine's time zone.
    let lastSecond = testNow.addingTimeInterval(16 * 3600 - 1)
    XCTAssertEqual(CalendarDay(lastSecond).description, "2026-05-12")
    XCTAssertEqual(CalendarDay(lastSecond.addingTimeInterval(1)).description, "2026-05-13")
    XCTAssertEqual(
      CalendarDay(year: 2026, month: 5, day: 12).startDate,
      testNow.addingTimeInterval(-8 * 3600))
  }

  func testCalendarMonthsWrapAroundTheYearAndKnowLeapYears() {
    XCTAssertEqual(CalendarMonth(year: 2026, month: 12).next, CalendarMonth(year: 2027, month: 1))
    XCTAssertEqual(
      CalendarMonth(year: 2026, month: 1).previous, CalendarMonth(year: 2025, month: 12))
    XCTAssertEqual(CalendarMonth(year: 2026, month: 2).dayCount, 28)
    XCTAssertEqual(CalendarMonth(year: 2028, month: 2).dayCount, 29)
    XCTAssertEqual(CalendarMonth(year: 2100, month: 2).dayCount, 28)
    XCTAssertEqual(CalendarMonth(year: 2000, month: 2).dayCount, 29)
    XCTAssertEqual(CalendarMonth(year: 2026, month: 4).dayCount, 30)
    XCTAssertEqual(CalendarMonth(year: 2026, month: 7).description, "2026-07")
    XCTAssertLessThan(CalendarMonth(year: 2026, month: 12), CalendarMonth(year: 2027, month: 1))
  }

  func testFixtureIDsSpellTheirIndexAndNamespace() {
    XCTAssertEqual(
      UUID(fixture: 10, namespace: 1).uuidString, "00000000-0000-0000-0001-00000000000A")
    XCTAssertEqual(UUID(fixture: 0).uuidString, "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(
      UUID(fixture: 0xFFFF_FFFF_FFFF, namespace: 0xFFFF).uuidString,
      "00000000-0000-0000-FFFF-FFFFFFFFFFFF")
  }

  func testFetchResultCatchesFailuresAsValues() async throws {
    let success = try await FetchResult { 3 }
    XCTAssertEqual(success, .success(3))
    XCTAssertEqual(success.value, 3)
    let failure = try await FetchResult<Int> { throw FetchFailure(message: "offline") }
    XCTAssertEqual(failure, .failure(FetchFailure(message: "offline")))
    XCTAssertNil(failure.value)
  }

  func testFetchResultLetsCancellationThrough() async {
    do {
      _ = try await FetchResult<Int> { throw CancellationError() }
      XCTFail("a cancellation must not become a failure value")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
  }

  func testPresentationActionDecodingRefusesAnUnknownShape() {
    let text = #"{"dismiss":{},"presented":{"_0":"x"}}"#
    XCTAssertThrowsError(
      try JSONDecoder().decode(PresentationAction<String>.self, from: Data(text.utf8))
    ) { error in
      guard case let .dataCorrupted(context) = error as? DecodingError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(
        context.debugDescription.hasPrefix(
          #"PresentationAction expects one of the keys "dismiss" or "presented", found"#),
        context.debugDescription)
    }
  }
}

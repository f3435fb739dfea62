import Foundation
import TestSupport
import XCTest

@testable import TraceValues

/// Dates are written as ISO 8601 text that gives the very same `Date` back.
final class DateTextTests: XCTestCase {
  func testDatesReadAsISO8601InUTCWithTheFractionTheyHave() {
    func text(since1970 seconds: Double) -> String? {
      DateText.text(seconds: Date(timeIntervalSince1970: seconds).timeIntervalSinceReferenceDate)
    }
    XCTAssertEqual(text(since1970: 1_778_572_800), "2026-05-12T08:00:00Z")
    XCTAssertEqual(text(since1970: 1_778_572_800.25), "2026-05-12T08:00:00.25Z")
    XCTAssertEqual(DateText.text(seconds: 0), "2001-01-01T00:00:00Z")
    XCTAssertEqual(DateText.text(seconds: -0.25), "2000-12-31T23:59:59.75Z")
    XCTAssertEqual(DateText.text(seconds: -86_400 * 366), "2000-01-01T00:00:00Z")
    XCTAssertEqual(DateText.text(seconds: 5_097_600), "2001-03-01T00:00:00Z")
    XCTAssertEqual(text(since1970: 951_782_400), "2000-02-29T00:00:00Z")
    XCTAssertEqual(DateText.text(seconds: 0.1), "2001-01-01T00:00:00.1Z")
    XCTAssertEqual(DateText.text(seconds: 1e-7), "2001-01-01T00:00:00.0000001Z")
    XCTAssertNil(DateText.text(seconds: .nan))
    XCTAssertNil(DateText.text(seconds: .infinity))
    XCTAssertNil(DateText.text(seconds: 1e13), "year 318,000")
    XCTAssertNil(DateText.text(seconds: -7e10), "before year 1")
  }

  func testEveryDateReadsBackBitForBit() throws {
    var random = SplitMix(seed: 8_601)
    var checked: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 1e-300, -1e-300, 2.5e11, -6.3e10]
    for _ in 0..<20_000 {
      let magnitude = [1.0, 1e3, 1e6, 1e9, 1e11][Int(random.next() % 5)]
      let unit = Double(random.next() % (1 << 53)) / Double(1 << 53)
      checked.append((unit * 2 - 1) * magnitude)
      checked.append(Double(bitPattern: random.next()))
    }
    var written = 0
    for seconds in checked {
      guard let text = DateText.text(seconds: seconds) else { continue }
      written += 1
      let back = try XCTUnwrap(DateText.seconds(parsing: text), text)
      XCTAssertEqual(back.bitPattern == seconds.bitPattern || back == seconds, true, text)
      XCTAssertEqual(DateText.text(seconds: back), text)
    }
    XCTAssertGreaterThan(written, 20_000)
  }

  func testOnlyISO8601DatesThatExistParse() {
    XCTAssertEqual(DateText.seconds(parsing: "2001-01-01T00:00:00Z"), 0)
    XCTAssertEqual(DateText.seconds(parsing: "2001-01-01T00:00:00.500Z"), 0.5)
    for bad in [
      "2001-01-01 00:00:00Z", "2001-01-01T00:00:00", "2001-02-29T00:00:00Z",
      "2001-13-01T00:00:00Z", "2001-01-01T24:00:00Z", "2001-01-01T00:00:00.Z",
      "2001-01-01T00:00:00.5+01:00", "0000-01-01T00:00:00Z", "2001-1-01T00:00:00Z", "",
    ] {
      XCTAssertNil(DateText.seconds(parsing: bad), bad)
    }
  }

  func testDatesInStateAreTextAndDecodeToTheSameDate() throws {
    struct Reminder: Codable, Equatable {
      var due: Date
      var snoozed: Date?
      var never: Date
    }
    let reminder = Reminder(
      due: Date(timeIntervalSince1970: 1_778_572_800.123_456_7), snoozed: nil,
      never: Date(timeIntervalSinceReferenceDate: .infinity))
    let tree = try TraceValueEncoder().encode(reminder)
    XCTAssertEqual(
      tree.description, #"(due: "2026-05-12T08:00:00.1234567Z", snoozed: nil, never: inf)"#)
    let back = try TraceValueDecoder().decode(
      Reminder.self, from: try TraceValue(json: tree.jsonString))
    XCTAssertEqual(back.due.timeIntervalSinceReferenceDate.bitPattern,
                   reminder.due.timeIntervalSinceReferenceDate.bitPattern)
    XCTAssertEqual(back, reminder)
    // Version 1 wrote seconds since 2001; they still decode.
    let old = TraceValue.object([
      TraceField("due", .double(0.5)), TraceField("never", .double(-1)),
    ])
    XCTAssertEqual(
      try TraceValueDecoder().decode(Reminder.self, from: old),
      Reminder(
        due: Date(timeIntervalSinceReferenceDate: 0.5), snoozed: nil,
        never: Date(timeIntervalSinceReferenceDate: -1)))
    XCTAssertThrowsError(
      try TraceValueDecoder().decode(
        Reminder.self,
        from: .object([TraceField("due", .string("tomorrow")), TraceField("never", .int(0))]))
    ) { error in
      XCTAssertTrue("\(error)".contains(#""tomorrow" is not an ISO 8601 date"#), "\(error)")
    }
  }
}

import XCTest

@testable import InspectorKit

final class ChangedPathsTextTests: XCTestCase {
  func testPositionsOfOneArrayAreFoldedIntoSortedRunsWhereTheirGroupFirstCame() {
    let paths = [
      "calendar.month.month", "calendar.climbedDays[12]", "calendar.climbedDays[11]",
      "calendar.climbedDays[10]", "calendar.climbedDays[0]", "calendar.isLoading",
      "calendar.climbedDays[1]", "calendar.climbedDays[7]",
    ]
    XCTAssertEqual(
      ChangedPathsText.text(paths),
      "calendar.month.month, calendar.climbedDays[0…1, 7, 10…12], calendar.isLoading")
  }

  func testOnlyTheLastPositionIsFoldedAndWhatFollowsItMustMatch() {
    XCTAssertEqual(
      ChangedPathsText.text([
        "rows[1].tags[0]", "rows[1].tags[1]", "rows[2].tags[0]", "rows[0].title",
        "rows[1].title", "rows[3].done",
      ]),
      "rows[1].tags[0…1], rows[2].tags[0], rows[0…1].title, rows[3].done")
  }

  func testIdentifiedElementsQuotedKeysAndLonePathsStayAsRecorded() {
    XCTAssertEqual(
      ChangedPathsText.text([
        #"rows[id: 3].title"#, #"rows[id: 4].title"#, #"settings["a[1]"]"#,
        #"settings["a[2]"]"#, #"names["x\"[1]"].count"#, "count",
      ]),
      #"rows[id: 3].title, rows[id: 4].title, settings["a[1]"], settings["a[2]"], "#
        + #"names["x\"[1]"].count, count"#)
    XCTAssertEqual(ChangedPathsText.text(["items[3]"]), "items[3]")
    XCTAssertEqual(ChangedPathsText.text([]), "")
  }

  func testAPositionTooLongToBeANumberIsNotFolded() {
    let huge = "items[" + String(repeating: "9", count: 40) + "]"
    XCTAssertEqual(ChangedPathsText.text([huge, "items[1]"]), huge + ", items[1]")
  }

  func testControlCharactersAreEscapedAsInEveryPath() {
    XCTAssertEqual(
      ChangedPathsText.text(["a\u{1B}b[1]", "a\u{1B}b[2]"]), #"a\u{1B}b[1…2]"#)
  }
}

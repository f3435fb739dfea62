import XCTest

@testable import InspectorKit

final class ScreenGridTests: XCTestCase {
  func testWideCharactersTakeTwoCellsAndNeverCrossTheEdge() {
    var grid = ScreenGrid(width: 7, height: 2)
    XCTAssertEqual(grid.write("한국어", row: 0, column: 0), 6)
    XCTAssertEqual(grid[0, 0].text, "한")
    XCTAssertEqual(grid[0, 1].text, "")
    // Three wide characters and an emoji do not fit in 7 columns: cut with "…".
    XCTAssertEqual(grid.write("한국어😀", row: 1, column: 0), 7)
    XCTAssertEqual(grid.lines, ["한국어", "한국어…"])
  }

  func testRecordedControlCharactersAreEscapedAsInTheBatchCommands() {
    var grid = ScreenGrid(width: 40, height: 1)
    grid.write("\u{1B}[31mred\u{1B}[0m\t\u{202E}x", row: 0, column: 0)
    XCTAssertEqual(grid.lines, [#"\u{1B}[31mred\u{1B}[0m\t\u{202E}x"#])
  }

  func testUnprintableCharactersAreWrittenAsEscapes() {
    var grid = ScreenGrid(width: 20, height: 1)
    // U+0378 is unassigned: wcwidth says -1, a terminal would draw it any width.
    grid.write("a\u{0378}b", row: 0, column: 0)
    XCTAssertEqual(grid.lines, [#"a\u{378}b"#])
  }

  func testOverwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.write("한국", row: 0, column: 0)
    grid.write("x", row: 0, column: 1)
    XCTAssertEqual(grid.lines, [" x국"])
    grid.write("y", row: 0, column: 2)
    XCTAssertEqual(grid.lines, [" xy"])
  }

  func testLimitCutsWithAnEllipsisAndPaintKeepsText() {
    var grid = ScreenGrid(width: 10, height: 1)
    grid.write("abcdefgh", row: 0, column: 2, limit: 4, style: .bold)
    grid.paint(row: 0, from: 0, to: 3, style: .cursor)
    XCTAssertEqual(grid.lines, ["  abc…"])
    XCTAssertEqual(grid.styleLines, ["CCCbbb"])
  }

  func testDisplayWidthFollowsWcwidth() {
    XCTAssertEqual(DisplayWidth.of(Character("a")), 1)
    XCTAssertEqual(DisplayWidth.of(Character("한")), 2)
    XCTAssertEqual(DisplayWidth.of(Character("😀")), 2)
    XCTAssertEqual(DisplayWidth.of(Character("e\u{301}")), 1)
    XCTAssertEqual(DisplayWidth.of("한국어 ok"), 9)
  }
}

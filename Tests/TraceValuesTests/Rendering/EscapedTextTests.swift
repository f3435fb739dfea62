import TraceValues
import XCTest

final class EscapedTextTests: XCTestCase {
  func testEscapeSequenceInRecordedStringIsShownEscaped() {
    XCTAssertEqual(EscapedText.quoted("\u{1B}[31mred\u{1B}[0m"), #""\u{1B}[31mred\u{1B}[0m""#)
  }

  func testControlCharactersC1AndBidiOverridesAreEscaped() {
    XCTAssertEqual(
      EscapedText.plain("a\tb\nc\r\0\u{7F}\u{9B}\u{202E}é"),
      #"a\tb\nc\r\0\u{7F}\u{9B}\u{202E}é"#)
  }

  func testQuotesAndBackslashesAreEscapedOnlyInsideLiterals() {
    XCTAssertEqual(EscapedText.quoted(#"say "hi" \ bye"#), #""say \"hi\" \\ bye""#)
    XCTAssertEqual(EscapedText.plain(#"say "hi""#), #"say "hi""#)
  }
}

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

  func testInvisibleFormatCharactersAreEscapedLikeControls() {
    // Zero-width space, joiner and no-break space, word joiner, soft hyphen, a tag character,
    // a line separator and a Hangul filler: each invisible, or reshaping the text around it.
    XCTAssertEqual(
      EscapedText.plain("pay\u{200B}pal \u{200D}\u{FEFF}\u{2060}\u{AD}\u{E0041}\u{2028}\u{3164}"),
      #"pay\u{200B}pal \u{200D}\u{FEFF}\u{2060}\u{AD}\u{E0041}\u{2028}\u{3164}"#)
    XCTAssertEqual(EscapedText.quoted("a\u{200B}"), #""a\u{200B}""#)
  }

  func testVisibleTextAndVariationSelectorsStayAsTheyAre() {
    XCTAssertEqual(EscapedText.plain("é 日本 ❤\u{FE0F} 🙂"), "é 日本 ❤\u{FE0F} 🙂")
  }
}

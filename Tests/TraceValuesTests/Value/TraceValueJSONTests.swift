import TestSupport
import TraceValues
import XCTest

final class TraceValueJSONTests: XCTestCase {
  func testWritesEveryCaseWithTheDocumentedMapping() {
    let value: TraceValue = .object([
      TraceField("null", .null),
      TraceField("flags", .array([.bool(true), .bool(false)])),
      TraceField("ints", .array([.int(-42), .int(.min), .uint(.max)])),
      TraceField("doubles", .array([.double(1), .double(-0.0), .double(1e-5), .double(2.5e20)])),
      TraceField("nonFinite", .array([.double(.nan), .double(.infinity), .double(-.infinity)])),
      TraceField("bytes", .bytes([0, 1, 2, 255])),
      TraceField("$dollar", .string("$")),
      TraceField("case", .enumCase("dateSelected", [TraceField("_0", .string("2026-05-12"))])),
      TraceField("reflected", .reflected(typeName: "Foo", .object([]))),
    ])
    XCTAssertEqual(
      value.jsonString,
      #"{"null":null,"flags":[true,false],"ints":[-42,-9223372036854775808,18446744073709551615],"#
        + #""doubles":[1.0,-0.0,1e-05,2.5e+20],"#
        + #""nonFinite":[{"$double":"nan"},{"$double":"inf"},{"$double":"-inf"}],"#
        + #""bytes":{"$bytes":"AAEC/w=="},"$$dollar":"$","#
        + #""case":{"$case":"dateSelected","_0":"2026-05-12"},"#
        + #""reflected":{"$reflected":"Foo","value":{}}}"#
    )
  }

  func testEscapesControlCharactersAndLineSeparators() {
    let value = TraceValue.string("a\"\\\n\r\t\u{8}\u{C}\u{1B}\u{0}\u{7F}\u{2028}\u{2029}é")
    XCTAssertEqual(
      value.jsonString, #""a\"\\\n\r\t\b\f\u001b\u0000\u007f\u2028\u2029é""#)
  }

  /// Strings of every length up to 40 (the writer looks at eight bytes at a time), from
  /// pieces that need escaping and pieces that must pass as they are (U+2027 and "€" start
  /// with 0xE2 as U+2028 does), as values and as keys: the JSON written is the documented
  /// escaping, byte for byte, and reads back to the same string.
  func testEveryRandomStringIsEscapedAsDocumentedByteForByte() throws {
    let pieces = [
      "a", "Z", " ", "~", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1B}",
      "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{2027}", "€", "é", "e\u{301}", "🦆", "$",
      "/", "\u{80}", "\u{FF}",
    ]
    var random = SplitMix(seed: 97)
    for round in 0..<4_000 {
      var text = ""
      for _ in 0..<Int(random.next() % 41) {
        text += pieces[Int(random.next() % UInt64(pieces.count))]
      }
      if random.next() % 2 == 0 {
        text += String(repeating: "plain", count: Int(random.next() % 4))
      }
      let expected = "\"" + Self.escaped(text) + "\""
      XCTAssertEqual(TraceValue.string(text).jsonString, expected, "round \(round)")
      let key = text.hasPrefix("$") ? "\"$" + expected.dropFirst() : expected
      XCTAssertEqual(
        TraceValue.object([TraceField(text, .int(1))]).jsonString, "{\(key):1}",
        "round \(round)")
      XCTAssertEqual(try TraceValue(json: expected), .string(text), "round \(round)")
    }
  }

  /// The documented escaping, one scalar at a time.
  private static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{8}": out += "\\b"
      case "\u{C}": out += "\\f"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let hex = String(scalar.value, radix: 16)
          out += "\\u00" + (hex.count < 2 ? "0" : "") + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  func testNaNWithAnotherBitPatternRoundTripsItsBits() throws {
    let odd = Double(bitPattern: 0xFFF8_0000_0000_0001)
    XCTAssertEqual(TraceValue.double(odd).jsonString, #"{"$double":"0xfff8000000000001"}"#)
    let back = try TraceValue(json: TraceValue.double(odd).jsonString)
    XCTAssertEqual(back, .double(odd))
  }

  func testParsesIntegersByRange() throws {
    XCTAssertEqual(try TraceValue(json: "9223372036854775807"), .int(.max))
    XCTAssertEqual(try TraceValue(json: "9223372036854775808"), .uint(1 << 63))
    XCTAssertEqual(try TraceValue(json: "-9223372036854775808"), .int(.min))
    XCTAssertEqual(try TraceValue(json: "-0"), .int(0))
    XCTAssertEqual(try TraceValue(json: "1.5e2"), .double(150))
    XCTAssertEqual(
      try TraceValue(json: "18446744073709551616"), .double(18_446_744_073_709_551_616))
  }

  func testParsesEscapesAndWhitespace() throws {
    let value = try TraceValue(json: " { \"a\\u00e9\\ud83d\\ude00\" : [ 1 , \"\\/\" ] } ")
    XCTAssertEqual(value, .object([TraceField("aé😀", .array([.int(1), .string("/")]))]))
  }

  func testUnescapesDollarKeys() throws {
    let value = try TraceValue(json: #"{"$$case":1,"$$$":2,"$$":3}"#)
    XCTAssertEqual(
      value,
      .object([TraceField("$case", .int(1)), TraceField("$$", .int(2)), TraceField("$", .int(3))])
    )
  }

  func testRejectsBadInputWithPositionAndReason() {
    let cases: [(String, TraceValueError)] = [
      ("[1, 2", TraceValueError(offset: 5, reason: "expected ',' or ']' in array")),
      ("", TraceValueError(offset: 0, reason: "expected a value, found end of input")),
      ("tru", TraceValueError(offset: 0, reason: "expected 'true'")),
      ("{\"a\" 1}", TraceValueError(offset: 5, reason: "expected ':' after object key")),
      ("1 2", TraceValueError(offset: 2, reason: "expected end of input after the value")),
      ("01", TraceValueError(offset: 1, reason: "expected end of input after the value")),
      ("1.", TraceValueError(offset: 2, reason: "expected a digit after '.'")),
      ("\"a\nb\"", TraceValueError(offset: 2, reason: "unescaped control character in string")),
      ("\"abc", TraceValueError(offset: 0, reason: "unterminated string")),
      ("\"\\x\"", TraceValueError(offset: 1, reason: "invalid escape sequence")),
      ("\"\\udc00\"", TraceValueError(offset: 1, reason: "unpaired low surrogate escape")),
      (
        #"{"a":1,"$case":"x"}"#,
        TraceValueError(
          offset: 7,
          reason: #"unexpected marker key "$case" (a key starting with '$' is written with '$$')"#)
      ),
      (
        #"{"$nope":1}"#,
        TraceValueError(
          offset: 1,
          reason: #"unknown marker key "$nope" (a key starting with '$' is written with '$$')"#)
      ),
      (
        #"{"$bytes":"AQ="}"#,
        TraceValueError(
          offset: 10, reason: "expected standard base64 with padding after \"$bytes\"")
      ),
      (
        #"{"$double":"1.0"}"#,
        TraceValueError(
          offset: 11, reason: "expected \"nan\", \"inf\", \"-inf\" or a 0x bit pattern")
      ),
      (
        #"{"$reflected":"T","val":1}"#,
        TraceValueError(offset: 18, reason: "expected the key \"value\" in a reflected value")
      ),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try TraceValue(json: text), text) { error in
        XCTAssertEqual(error as? TraceValueError, expected, text)
      }
    }
    XCTAssertEqual(
      TraceValueError(offset: 5, reason: "expected ',' or ']' in array").description,
      "invalid trace JSON at byte 5: expected ',' or ']' in array")
  }

  func testRejectsInvalidUTF8AndDeepNesting() {
    XCTAssertThrowsError(try TraceValue(json: [0x22, 0xFF, 0x22])) { error in
      XCTAssertEqual(
        error as? TraceValueError, TraceValueError(offset: 1, reason: "invalid UTF-8 in string"))
    }
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    XCTAssertThrowsError(try TraceValue(json: deep)) { error in
      XCTAssertEqual(
        error as? TraceValueError,
        TraceValueError(offset: 512, reason: "nesting deeper than 512 levels"))
    }
  }

  func testEveryGeneratedValueRoundTripsExactly() throws {
    var random = RandomTraceValue(seed: 0x5EED_0001)
    for iteration in 0..<5_000 {
      let value = random.value(depth: 5)
      let json = value.jsonString
      let back = try TraceValue(json: json)
      XCTAssertEqual(back, value, "iteration \(iteration): \(json)")
      // Same bytes for strings too, not only canonically equivalent ones.
      XCTAssertEqual(back.jsonString, json, "iteration \(iteration)")
    }
  }
}

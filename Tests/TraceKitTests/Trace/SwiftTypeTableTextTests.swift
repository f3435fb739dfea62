import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `SwiftTypeTable.jsonText` is written by hand: it must be exactly the text `JSONEncoder`
/// gives (`sortedJSONText`), which traces recorded before stored.
final class SwiftTypeTableTextTests: XCTestCase {
  func testATableIsWrittenInExactlyTheseBytes() {
    let table = SwiftTypeTable(
      state: [
        "todos": SwiftTypeEntry(
          type: "IdentifiedArrayOf<Todo>", kind: .identifiedArray, keyType: "Foundation.UUID"),
        "": SwiftTypeEntry(type: "App.State", kind: .struct),
        "filter": SwiftTypeEntry(
          type: "Filter", kind: .enum, optional: false, cases: ["all", "active"],
          rawValues: ["b/c": "all", "a\"\n": "active"]),
        "Z": SwiftTypeEntry(type: "Int", kind: .integer, optional: true),
      ],
      action: [:])
    XCTAssertEqual(
      table.jsonText,
      #"{"action":{},"state":{"":{"kind":"struct","type":"App.State"},"Z":{"kind":"integer","#
        + #""optional":true,"type":"Int"},"filter":{"cases":["all","active"],"kind":"enum","#
        + #""optional":false,"rawValues":{"a\"\n":"active","b/c":"all"},"type":"Filter"},"#
        + #""todos":{"keyType":"Foundation.UUID","kind":"identifiedArray","#
        + #""type":"IdentifiedArrayOf<Todo>"}}}"#)
    XCTAssertEqual(table.jsonText, sortedJSONText(table, empty: "{}"))
    XCTAssertEqual(SwiftTypeTable().jsonText, #"{"action":{},"state":{}}"#)
  }

  func testEveryRandomTableIsTheTextJSONEncoderWrites() {
    var random = SplitMix(seed: 61)
    // Keys and names that order differently by bytes than by letters or numbers, every
    // control character, the characters JSON escapes, and text beyond ASCII.
    let pieces = [
      "a", "B", "b", "10", "9", "_", "[]", ".", "/", "\\", "\"", "é", "e\u{301}", "😀", "Ω",
      "\u{7F}", "\u{2028}", "todos[]", "$case",
    ] + (0..<32).map { String(UnicodeScalar(UInt8($0))) }
    func text(_ random: inout SplitMix) -> String {
      (0..<Int.random(in: 0...4, using: &random))
        .map { _ in pieces.randomElement(using: &random)! }.joined()
    }
    func entry(_ random: inout SplitMix) -> SwiftTypeEntry {
      let kinds: [SwiftTypeEntry.Kind] = [
        .struct, .enum, .identifiedArray, .array, .dictionary, .set, .uuid, .date, .url,
        .string, .bool, .integer, .floatingPoint, .other,
      ]
      return SwiftTypeEntry(
        type: text(&random), kind: kinds.randomElement(using: &random)!,
        optional: [nil, true, false].randomElement(using: &random)!,
        cases: Bool.random(using: &random)
          ? nil : (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
        rawValues: Bool.random(using: &random)
          ? nil
          : Dictionary(
            (0..<Int.random(in: 0...4, using: &random)).map { _ in
              (text(&random), text(&random))
            }, uniquingKeysWith: { first, _ in first }),
        keyType: Bool.random(using: &random) ? nil : text(&random))
    }
    func entries(_ random: inout SplitMix) -> [String: SwiftTypeEntry] {
      Dictionary(
        (0..<Int.random(in: 0...6, using: &random)).map { _ in (text(&random), entry(&random)) },
        uniquingKeysWith: { first, _ in first })
    }
    for round in 0..<1_500 {
      let table = SwiftTypeTable(state: entries(&random), action: entries(&random))
      let expected = sortedJSONText(table, empty: "{}")
      XCTAssertEqual(table.jsonText, expected, "round \(round)")
      XCTAssertEqual(SwiftTypeTable(jsonText: table.jsonText), table, "round \(round)")
    }
  }
}

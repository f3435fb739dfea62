import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `StepLine.Encoder` finds a path's texts again by its components' storage and a repeated
/// action's JSON by its fields' storage: what it writes must be what the value's own text and
/// JSON are, whichever values came before and whichever arrays they share.
final class StepLineEncoderCacheTests: XCTestCase {
  func testChangedPathTextsAreEachPathsTextOnceInOrder() {
    let title = TracePath([.key("todos"), .id(.string("1")), .key("title")])
    let count = TracePath([.key("count")])
    // Canonically equal to "café", not the same bytes.
    let decomposed = TracePath([.key("cafe\u{301}")])
    let composed = TracePath([.key("caf\u{E9}")])
    let row = TracePath([.key("rows"), .id(.object([TraceField("a", .int(1))]))])
    var encoder = StepLine.Encoder()
    let texts = encoder.changedPathTexts([title, count, title, composed, decomposed, row, row])
    // The two spellings of "café" are one text, as `String`'s `==` tells (the first met).
    XCTAssertEqual(
      texts, ["todos[id: \"1\"].title", "count", "[\"caf\u{E9}\"]", "rows[id: {\"a\":1}]"])
    XCTAssertEqual(texts[2].utf8.count, 9)
    // Asked again (the same arrays, then equal ones in new arrays): the same texts.
    XCTAssertEqual(encoder.changedPathTexts([count, title]), ["count", "todos[id: \"1\"].title"])
    let newTitle = TracePath([.key("todos"), .id(.string("1")), .key("title")])
    XCTAssertEqual(encoder.changedPathTexts([newTitle]), ["todos[id: \"1\"].title"])
    XCTAssertEqual(encoder.changedPathTexts([]), [])
    XCTAssertEqual(encoder.changedPathTexts([TracePath.root]), ["."])
    // Compared as bytes: as strings, the two spellings are equal.
    XCTAssertEqual(
      encoder.changedPathTexts([decomposed]).map { Array($0.utf8) },
      [Array("[\"cafe\u{301}\"]".utf8)])
    XCTAssertEqual(
      encoder.changedPathTexts([composed]).map { Array($0.utf8) }, [Array("[\"caf\u{E9}\"]".utf8)])
  }

  /// Paths named and then written (the same arrays, as a step's changed paths and changes
  /// are), arrays changed in place after they were named, and paths dropped and made anew
  /// (which may reuse their storage's address): each text is the path's own.
  func testEveryPathsTextsAreItsOwnWhateverStorageItShares() {
    // Short strings (their bits are their bytes), one long string shared by every path (one
    // storage), and long strings made anew for each component (equal texts, new storage).
    let shared = "00000000-0000-0000-007D-000000000007.a-long-key"
    let pieces = [
      "todos", "title", "caf\u{E9}", "cafe\u{301}", "\"", "a.b", "", "😀", "x\ny", shared, "made",
    ]
    var random = SplitMix(seed: 13)
    func component() -> TracePath.Component {
      var piece = pieces[Int(random.next() % UInt64(pieces.count))]
      if piece == "made" {
        piece = String(repeating: "made-anew.", count: 3 + Int(random.next() % 2))
      }
      switch random.next() % 5 {
      case 0: return .index(Int(random.next() % 5))
      case 1: return .id(.int(Int64(random.next() % 5) - 2))
      case 2: return .id(.string(piece))
      case 3: return .id(.array([.string(piece)]))
      default: return .key(piece)
      }
    }
    func path() -> TracePath { TracePath((0..<Int(random.next() % 4)).map { _ in component() }) }
    var encoder = StepLine.Encoder()
    var kept = (0..<200).map { _ in path() }
    for round in 0..<40 {
      // A step: some kept paths, some new ones, one kept array changed in place.
      var paths = (0..<6).map { _ in kept[Int(random.next() % UInt64(kept.count))] }
      paths += (0..<3).map { _ in path() }
      let changed = Int(random.next() % UInt64(kept.count))
      kept[changed].components.append(component())
      paths.append(kept[changed])
      var expected: [String] = []
      for path in paths where !expected.contains(path.description) {
        expected.append(path.description)
      }
      // As bytes: each text must be its own path's, not a canonically equal one's.
      XCTAssertEqual(
        encoder.changedPathTexts(paths).map { Array($0.utf8) }, expected.map { Array($0.utf8) },
        "round \(round)")
      for path in paths {
        let change = TraceChange.set(path, .int(Int64(round)))
        var written: [UInt8] = []
        encoder.writeChange(change, into: &written)
        var json: [UInt8] = []
        change.jsonValue.writeJSON(into: &json)
        XCTAssertEqual(written, json, String(decoding: json, as: UTF8.self))
      }
      if round % 4 == 0 { kept = (0..<200).map { _ in path() } }
    }
  }

  func testARepeatedActionIsWrittenInItsOwnBytes() {
    let fields = [TraceField("id", .int(3)), TraceField("$value", .string("a\"b"))]
    let toggle = TraceValue.enumCase("toggle", fields)
    // The same fields array under another case name, and as an object.
    let rename = TraceValue.enumCase("rename", fields)
    let object = TraceValue.object(fields)
    var encoder = StepLine.Encoder()
    func written(_ action: TraceValue) -> String {
      var buffer: [UInt8] = [UInt8(ascii: "<")]
      encoder.writeAction(action, into: &buffer)
      return String(decoding: buffer.dropFirst(), as: UTF8.self)
    }
    for _ in 0..<2 {
      XCTAssertEqual(written(toggle), #"{"$case":"toggle","id":3,"$$value":"a\"b"}"#)
      XCTAssertEqual(written(rename), #"{"$case":"rename","id":3,"$$value":"a\"b"}"#)
      XCTAssertEqual(written(object), #"{"id":3,"$$value":"a\"b"}"#)
      XCTAssertEqual(written(.enumCase("tap", [])), #"{"$case":"tap"}"#)
      // Canonically equal names, different bytes: each its own.
      XCTAssertEqual(
        Array(written(.enumCase("caf\u{E9}", fields)).utf8),
        Array("{\"$case\":\"caf\u{E9}\",\"id\":3,\"$$value\":\"a\\\"b\"}".utf8))
      XCTAssertEqual(
        Array(written(.enumCase("cafe\u{301}", fields)).utf8),
        Array("{\"$case\":\"cafe\u{301}\",\"id\":3,\"$$value\":\"a\\\"b\"}".utf8))
      XCTAssertEqual(written(.string("x")), #""x""#)
    }
    // Many actions, made anew, kept or dropped (their storage may be reused), some of them
    // too long to keep: each is written as its JSON.
    var random = SplitMix(seed: 5)
    var kept: [TraceValue] = []
    for index in 0..<3_000 {
      let action: TraceValue
      if !kept.isEmpty, random.next() % 2 == 0 {
        action = kept[Int(random.next() % UInt64(kept.count))]
      } else {
        let size = Int(random.next() % 3) == 0 ? 200 : 2
        let made = TraceValue.enumCase(
          "case\(random.next() % 4)",
          (0..<size).map { TraceField("f\($0)", .int(Int64(random.next() % 3))) })
        if kept.count < 50 { kept.append(made) } else { kept[index % 50] = made }
        action = made
      }
      var expected: [UInt8] = []
      action.writeJSON(into: &expected)
      var buffer: [UInt8] = []
      encoder.writeAction(action, into: &buffer)
      XCTAssertEqual(buffer, expected)
      guard buffer == expected else { return }
    }
  }

  /// Cases without fields all share the empty fields array: each is written as its own JSON,
  /// whichever cases came before (short names, canonically equal names of other bytes, long
  /// names made anew with the same bytes or other bytes).
  func testCasesWithoutFieldsAreEachWrittenInTheirOwnBytes() {
    let names = [
      "plus", "minus", "reset", "caf\u{E9}", "cafe\u{301}", "a\"b", "",
      "a-case-name-longer-than-fifteen-bytes",
    ]
    var random = SplitMix(seed: 24)
    var encoder = StepLine.Encoder()
    for index in 0..<2_000 {
      var name = names[Int(random.next() % UInt64(names.count))]
      if random.next() % 4 == 0 { name = "made-anew-case-\(random.next() % 3)-of-a-long-name" }
      let action: TraceValue = random.next() % 8 == 0 ? .object([]) : .enumCase(name, [])
      var expected: [UInt8] = []
      action.writeJSON(into: &expected)
      var buffer: [UInt8] = [UInt8(ascii: "<")]
      encoder.writeAction(action, into: &buffer)
      XCTAssertEqual(Array(buffer.dropFirst()), expected, "action \(index): \(name)")
      guard Array(buffer.dropFirst()) == expected else { return }
    }
  }

  /// A path set's JSON is its strings' JSON, in order, whichever paths it is said to be named
  /// from: the step's own (the usual case), others, fewer, shuffled, or texts made anew (the
  /// same bytes in other bits), and with the paths' texts cached or not.
  func testAPathSetIsItsStringsJSONWhicheverPathsItIsNamedFrom() {
    let long = "00000000-0000-0000-007D-000000000007.a-long-key"
    let pieces = ["todos", "title", "caf\u{E9}", "cafe\u{301}", "\"", "a.b", "", "x\ny", long]
    var random = SplitMix(seed: 27)
    func component() -> TracePath.Component {
      let piece = pieces[Int(random.next() % UInt64(pieces.count))]
      switch random.next() % 4 {
      case 0: return .index(Int(random.next() % 5))
      case 1: return .id(.string(piece))
      default: return .key(piece)
      }
    }
    func path() -> TracePath { TracePath((0..<Int(random.next() % 4)).map { _ in component() }) }
    var encoder = StepLine.Encoder()
    for round in 0..<2_000 {
      let paths = (0..<Int(random.next() % 5)).map { _ in path() }
      var strings = encoder.changedPathTexts(paths)
      var named = paths
      switch random.next() % 6 {
      case 0: strings = strings.map { String(decoding: Array($0.utf8), as: UTF8.self) }
      case 1: strings.shuffle(using: &random)
      case 2: named.shuffle(using: &random)
      case 3: named = (0..<3).map { _ in path() }
      case 4: if !named.isEmpty { named.removeFirst() }
      default: break
      }
      var expected: [UInt8] = [UInt8(ascii: "@"), UInt8(ascii: "[")]
      for (index, string) in strings.enumerated() {
        if index > 0 { expected.append(UInt8(ascii: ",")) }
        TraceValue.string(string).writeJSON(into: &expected)
      }
      expected.append(UInt8(ascii: "]"))
      var written: [UInt8] = [UInt8(ascii: "@")]
      encoder.writeChangedPathSet(strings, namedFrom: named, into: &written)
      XCTAssertEqual(written, expected, "round \(round)")
      guard written == expected else { return }
      var cached: [UInt8] = [UInt8(ascii: "@")]
      encoder.writeStringArray(strings, into: &cached)
      XCTAssertEqual(cached, expected, "round \(round), the cached writer")
    }
  }
}

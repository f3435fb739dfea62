import Foundation
import TraceKit
import XCTest

@testable import InspectorKit

/// `export`'s steps written as bytes: the text `JSONOutput` writes, escapes included.
final class JSONBytesTests: XCTestCase {
  func testAStepIsWrittenWithEveryFieldInOrder() {
    var json = JSONBytes()
    json.newline(first: true)
    json.step(
      StepRow(
        step: 12, monotonicNanos: 1_200_000, wallTime: 1_780_000_000.25, origin: .user,
        actionPath: "rows.element.toggle", changedPaths: ["rows[id: 3].done", "count"],
        stateHash: 0x0009_F3A0_0000_00FF, reducerNanos: 0),
      action: .enumCase("toggle", [TraceField("id", .int(-3))]),
      changes: [
        .set(TracePath([.key("count")]), .int(18_446_744)),
        .insert(TracePath([.key("tags"), .index(0)]), .string("a")),
        .remove(TracePath([.key("rows"), .id(.int(3))])),
      ])
    json.newline(first: false)
    XCTAssertEqual(
      json.text,
      "\n" + #"{"step":12,"nanos":1200000,"wallTime":1780000000.25,"origin":"user","#
        + #""actionPath":"rows.element.toggle","changedPaths":["rows[id: 3].done","count"],"#
        + #""stateHash":"0009f3a0000000ff","reducerNanos":0,"#
        + #""action":{"$case":"toggle","id":-3},"changes":[{"op":"set","path":"count","#
        + #""value":18446744},{"op":"insert","path":"tags[0]","value":"a"},"#
        + #"{"op":"remove","path":"rows[id: 3]"}]}"# + ",\n")
  }

  func testQuotesControlsAndDirectionOverridesAreEscapedAsJSONOutputEscapesThem() {
    let tricky = "say \"hi\"\\ \u{7F}\u{85}\u{202E}é🙂\n"
    var json = JSONBytes()
    json.step(
      StepRow(
        step: 1, monotonicNanos: 0, wallTime: .nan, origin: .user, actionPath: tricky,
        changedPaths: [tricky], stateHash: 0, reducerNanos: 0),
      action: .string(tricky), changes: [.set(TracePath([.key(tricky)]), .string(tricky))])
    var expected = JSONOutput()
    expected.object { j in
      StepJSON.write(
        StepRow(
          step: 1, monotonicNanos: 0, wallTime: .nan, origin: .user, actionPath: tricky,
          changedPaths: [tricky], stateHash: 0, reducerNanos: 0),
        into: &j)
      j.field("action") { $0.value(.string(tricky)) }
      j.field("changes") { j in
        j.array { j in
          j.object { j in
            j.field("op") { $0.string("set") }
            j.field("path") { $0.string(TracePath([.key(tricky)]).description) }
            j.field("value") { $0.value(.string(tricky)) }
          }
        }
      }
    }
    XCTAssertEqual(json.text, expected.text)
    XCTAssertFalse(json.text.unicodeScalars.contains { $0 == "\u{7F}" || $0 == "\u{202E}" })
  }

  func testStepsLargerThanTheRoomGrowItAndKeepEveryByte() {
    let long = String(repeating: "0123456789", count: 2_000)  // 20,000 bytes
    let row = StepRow(
      step: 7, monotonicNanos: 9, wallTime: 0.5, origin: .send(step: 6), actionPath: long,
      changedPaths: [long, "b"], stateHash: 0xFFFF_FFFF_FFFF_FFFF, reducerNanos: .max)
    let changes: [TraceChange] = [.set(TracePath([.key("big")]), .string(long))]
    var json = JSONBytes(capacity: 16)
    json.newline(first: true)
    json.step(row, action: .string(long), changes: changes)
    json.newline(first: false)
    json.step(row, action: .null, changes: [])

    func expected(_ action: TraceValue, _ changes: [TraceChange]) -> String {
      var j = JSONOutput()
      j.object { j in
        StepJSON.write(row, into: &j)
        j.field("action") { $0.value(action) }
        j.field("changes") { j in
          j.array { j in
            for case .set(let path, let value) in changes {
              j.object { j in
                j.field("op") { $0.string("set") }
                j.field("path") { $0.string(path.description) }
                j.field("value") { $0.value(value) }
              }
            }
          }
        }
      }
      return j.text
    }
    let text = "\n" + expected(.string(long), changes) + ",\n" + expected(.null, [])
    XCTAssertEqual(json.count, text.utf8.count)
    XCTAssertEqual(json.text, text)
    XCTAssertEqual(json.bytes, Array(text.utf8))
    json.removeAll()
    XCTAssertEqual(json.count, 0)
    XCTAssertEqual(json.text, "")
  }

  /// Handed to the output in pieces of about 64 KiB, none of them cut inside a character:
  /// two- and four-byte characters put a piece's end inside one at every offset.
  func testTheOutputIsHandedOverInPiecesCutBetweenCharacters() {
    for prefix in 0..<4 {
      var json = JSONBytes()
      let text = String(repeating: "a", count: prefix) + String(repeating: "é🙂", count: 30_000)
      json.step(
        StepRow(
          step: 1, monotonicNanos: 0, wallTime: 0, origin: .user, actionPath: text,
          changedPaths: [], stateHash: 0, reducerNanos: 0),
        action: .null, changes: [])
      var pieces = PieceOutput()
      json.write(to: &pieces)
      XCTAssertEqual(pieces.text, json.text, "prefix \(prefix)")
      XCTAssertEqual(pieces.sizes.count, 3, "prefix \(prefix)")
      XCTAssertTrue(pieces.sizes.dropLast().allSatisfy { $0 <= 1 << 16 && $0 > (1 << 16) - 4 })
      XCTAssertFalse(pieces.text.contains("\u{FFFD}"))
    }
  }

  /// What `JSONBytes.write(to:)` hands over, piece by piece.
  struct PieceOutput: FlushingOutput {
    var text = ""
    var sizes: [Int] = []

    mutating func write(_ string: String) {
      text += string
      sizes.append(string.utf8.count)
    }

    mutating func flush() {}
  }
}

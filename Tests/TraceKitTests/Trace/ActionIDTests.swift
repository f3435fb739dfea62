import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer numbers action paths as `String`s (canonically equal paths are one
/// `actions` row, the first one's text), finding them by their bytes first
/// (`StringBytesKey`): the ids are the ones the `String` table alone gives.
final class ActionIDTests: XCTestCase {
  func testBytesKeysAreEqualExactlyWhenTheStringsHaveTheSameBytes() {
    XCTAssertEqual(StringBytesKey("todos.toggle"), StringBytesKey("todos.toggle"))
    XCTAssertEqual(StringBytesKey(""), StringBytesKey(""))
    XCTAssertNotEqual(StringBytesKey("caf\u{E9}"), StringBytesKey("cafe\u{301}"))
    XCTAssertNotEqual(StringBytesKey("\u{212A}"), StringBytesKey("K"))
    XCTAssertNotEqual(StringBytesKey("a"), StringBytesKey("a\u{0}"))
    var keys = Set<StringBytesKey>()
    for length in 0..<20 {
      for piece in ["x", "caf\u{E9}", "cafe\u{301}", "\u{212A}", "K"] {
        keys.insert(StringBytesKey(String(repeating: piece, count: length)))
      }
    }
    XCTAssertEqual(keys.count, 96, "19 lengths of 5 pieces and the empty string")
  }

  func testCanonicallyEqualPathsShareTheFirstOnesIDWhateverTheirBytes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    // Each path comes back after two others, so it is neither of the last two looked up.
    let paths = [
      "caf\u{E9}", "K", "b", "cafe\u{301}", "\u{212A}", "c", "caf\u{E9}", "\u{212A}", "b",
      "cafe\u{301}", "K", "c", String("xcafe\u{301}".dropFirst()), "b",
    ]
    for (index, actionPath) in paths.enumerated() {
      try writer.append(
        StepRecord(
          step: index + 1, monotonicNanos: 0, wallTime: 1_000, origin: .user,
          actionPath: actionPath, action: .null, changes: [], changedPaths: [], stateHash: 0,
          reducerNanos: 0),
        state: .int(0))
    }
    try writer.close()
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let rows = try database.prepare("SELECT id, hex(path) FROM actions ORDER BY id")
    var stored: [String] = []
    while try rows.step() { stored.append("\(rows.text(at: 0)) \(rows.text(at: 1))") }
    XCTAssertEqual(
      stored, ["0 ", "1 " + hex("caf\u{E9}"), "2 " + hex("K"), "3 " + hex("b"), "4 " + hex("c")])
    let steps = try database.prepare("SELECT action FROM steps ORDER BY step")
    var actions: [String] = []
    while try steps.step() { actions.append(steps.text(at: 0)) }
    XCTAssertEqual(
      actions, ["0", "1", "2", "3", "1", "2", "4", "1", "2", "3", "1", "2", "4", "1", "3"])
  }

  private func hex(_ text: String) -> String {
    text.utf8.map { String(format: "%02X", $0) }.joined()
  }
}

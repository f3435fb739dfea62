import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer numbers changed-path sets by `StringListKey`: sets are the same row exactly
/// when their strings have the same bytes.
final class StringListKeyTests: XCTestCase {
  func testKeysAreEqualExactlyWhenTheStringsHaveTheSameBytes() {
    XCTAssertEqual(StringListKey(["a", "b"]), StringListKey(["a", "b"]))
    XCTAssertEqual(StringListKey([]), StringListKey([]))
    XCTAssertNotEqual(StringListKey(["caf\u{E9}"]), StringListKey(["cafe\u{301}"]))
    XCTAssertNotEqual(StringListKey(["ab"]), StringListKey(["a", "b"]))
    XCTAssertNotEqual(StringListKey(["a", "b"]), StringListKey(["b", "a"]))
    XCTAssertNotEqual(StringListKey([""]), StringListKey([]))
    XCTAssertNotEqual(StringListKey(["a"]), StringListKey(["a", "a"]))
    var keys = Set<StringListKey>()
    for size in 0..<4 {
      for first in ["x", "caf\u{E9}", "cafe\u{301}", "0123456789abcdef0"] {
        keys.insert(StringListKey(Array(repeating: first, count: size)))
      }
    }
    XCTAssertEqual(keys.count, 13, "12 lists of 1 to 3 strings and the empty one")
  }

  /// Sets that differ only in the bytes of a path (canonically equal strings) are two rows, each
  /// with its own text, and the steps name their own.
  func testSetsThatDifferOnlyInBytesAreStoredAsTwoRows() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    let sets = [["caf\u{E9}"], ["cafe\u{301}"], ["caf\u{E9}"], ["cafe\u{301}"], ["x"]]
    for (index, paths) in sets.enumerated() {
      try writer.append(
        StepRecord(
          step: index + 1, monotonicNanos: 0, wallTime: 1_000, origin: .user, actionPath: "a",
          action: .null, changes: [], changedPaths: paths, stateHash: 0, reducerNanos: 0),
        state: .int(0))
    }
    try writer.close()
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let rows = try database.prepare("SELECT id, hex(paths) FROM path_sets ORDER BY id")
    var stored: [String] = []
    while try rows.step() { stored.append("\(rows.text(at: 0)) \(rows.text(at: 1))") }
    XCTAssertEqual(
      stored,
      [
        "0 " + hex("[]"), "1 " + hex("[\"caf\u{E9}\"]"), "2 " + hex("[\"cafe\u{301}\"]"),
        "3 " + hex("[\"x\"]"),
      ])
    let steps = try database.prepare("SELECT changed FROM steps ORDER BY step")
    var changed: [String] = []
    while try steps.step() { changed.append(steps.text(at: 0)) }
    XCTAssertEqual(changed, ["0", "1", "2", "1", "2", "3"])
  }

  private func hex(_ text: String) -> String {
    text.utf8.map { String(format: "%02X", $0) }.joined()
  }
}

/// The trace writer finds a changed-path set by its strings' bits (`StringListBitsKey`) before
/// their bytes: the ids are the ones the bytes alone give, whatever storage the strings have.
final class StringListBitsKeyTests: XCTestCase {
  func testEqualBitsAreTheSameStringsAndOtherListsDiffer() {
    let long = String(repeating: "todos[id: 7].", count: 3) + "title"
    let texts = [long, "count", ""]
    XCTAssertEqual(StringListBitsKey(texts), StringListBitsKey(texts))
    XCTAssertEqual(StringListBitsKey(Array(texts)), StringListBitsKey(texts))
    XCTAssertEqual(StringListBitsKey([]), StringListBitsKey([]))
    XCTAssertEqual(StringListBitsKey(["count"]), StringListBitsKey(["count"]), "small strings")
    XCTAssertNotEqual(StringListBitsKey(["caf\u{E9}"]), StringListBitsKey(["cafe\u{301}"]))
    XCTAssertNotEqual(StringListBitsKey(["a", "b"]), StringListBitsKey(["b", "a"]))
    XCTAssertNotEqual(StringListBitsKey([""]), StringListBitsKey([]))
    XCTAssertNotEqual(StringListBitsKey([long]), StringListBitsKey([long + "x"]))
  }

  /// Steps name sets by strings kept from step to step, by new strings of the same texts, and
  /// by canonically equal texts in other bytes; every step's `changed` is the id numbering the
  /// sets by their bytes gives, and each set is one row.
  func testEveryStepNamesTheSetItsBytesName() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    let kept = [
      "todos[id: \"00000000-0000-0000-007D-000000000001\"].isComplete", "caf\u{E9}",
      "cafe\u{301}", "count", "search.query", "",
    ]
    var random = SplitMix(seed: 88)
    var numbering = PathSetNumbering()
    for step in 1...3_000 {
      var paths: [String] = []
      for _ in 0..<Int(random.next() % 3) {
        let text = kept[Int(random.next() % UInt64(kept.count))]
        // A new string of the same text now and then: other bits, the same bytes.
        let fresh = String(decoding: Array(text.utf8), as: UTF8.self)
        paths.append(random.next() % 4 == 0 ? fresh : text)
      }
      try numbering.append(step: step, texts: paths, to: writer)
    }
    try writer.close()
    try numbering.assertWritten(at: path)
    XCTAssertEqual(numbering.count, 1 + 6 + 36, "every list of up to two of the six texts")
  }
}

import Foundation
import TestSupport
import TraceValues
import XCTest

@testable import TraceKit

/// The trace writer names a step's changed paths, and finds their set's id, from the sets it
/// met lately by the paths' bits (`RecentPathSets`): the texts and ids are the ones naming each
/// path and numbering the sets by their bytes give.
final class RecentPathSetsTests: XCTestCase {
  private let count = TracePath([.key("count")])
  private let title = TracePath([.key("todos"), .id(.int(1)), .key("title")])

  func testASetIsFoundByItsPathsBitsOnly() {
    var sets = RecentPathSets()
    let paths = [count, title]
    let slot = RecentPathSets.slot(of: paths)
    XCTAssertNil(sets.entry(of: paths, at: slot))
    sets.keep(paths, texts: ["count", "todos[id: 1].title"], at: slot)
    XCTAssertEqual(sets.entry(of: paths, at: slot)?.texts, ["count", "todos[id: 1].title"])
    XCTAssertEqual(sets.entry(of: Array(paths), at: slot)?.texts.count, 2, "the same paths")
    XCTAssertNil(sets.entry(of: paths, at: slot)?.id)
    // Equal paths in new arrays of components: other bits, a miss.
    let fresh = [TracePath([.key("count")]), TracePath(title.components.map { $0 })]
    XCTAssertEqual(fresh, paths)
    XCTAssertNil(sets.entry(of: fresh, at: RecentPathSets.slot(of: fresh)))
    XCTAssertNil(sets.entry(of: [title, count], at: RecentPathSets.slot(of: [title, count])))
    XCTAssertNil(sets.entry(of: [count], at: RecentPathSets.slot(of: [count])))
  }

  func testAnIDIsNotedForTheSameTextsOnlyAndOnce() {
    var sets = RecentPathSets()
    let paths = [title]
    let slot = RecentPathSets.slot(of: paths)
    let texts = ["todos[id: 1].title"]
    sets.keep(paths, texts: texts, at: slot)
    // A new string of the same (large) text has other bits: not known to be the same set.
    let other = [String(decoding: Array(texts[0].utf8), as: UTF8.self)]
    sets.noteID(7, of: other, at: slot)
    XCTAssertNil(sets.entry(of: paths, at: slot)?.id)
    sets.noteID(3, of: texts, at: slot)
    XCTAssertEqual(sets.entry(of: paths, at: slot)?.id, 3)
    sets.noteID(5, of: texts, at: slot)
    XCTAssertEqual(sets.entry(of: paths, at: slot)?.id, 3)
    // A set kept in the slot replaces the one there, without an id.
    sets.keep(paths, texts: texts, at: slot)
    XCTAssertNil(sets.entry(of: paths, at: slot)?.id)
  }

  /// Steps change sets of paths in turn, as the trace stage hands them: paths kept from step
  /// to step, and now and then new arrays of the same components. Every step's `changed` is
  /// the id the sets' bytes give, each set is one row, and each step's texts are its paths'.
  func testEveryStepNamesItsPathsAndTheSetTheirBytesName() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    let kept = [
      count, title, TracePath([.key("todos"), .id(.string("caf\u{E9}")), .key("isDone")]),
      TracePath([.key("todos"), .id(.string("cafe\u{301}")), .key("isDone")]),
      TracePath([.key("search"), .key("query")]), TracePath([.key("rows"), .index(3)]),
    ]
    // A few sets that come back, as a composed app's steps do, and random ones.
    let recurring = [[kept[0]], [kept[1], kept[0]], [kept[4]], [kept[2], kept[3]], [kept[5]]]
    var random = SplitMix(seed: 31)
    var numbering = PathSetNumbering()
    for step in 1...3_000 {
      var paths: [TracePath]
      if random.next() % 3 == 0 {
        paths = (0..<Int(random.next() % 4)).map { _ in kept[Int(random.next() % 6)] }
      } else {
        paths = recurring[Int(random.next() % UInt64(recurring.count))]
      }
      if random.next() % 5 == 0 {
        // The same paths in new arrays of components: other bits.
        paths = paths.map { TracePath($0.components.map { $0 }) }
      }
      let texts = writer.changedPathTexts(paths)
      XCTAssertEqual(texts, TracePath.changedPathTexts(paths), "step \(step)")
      try numbering.append(step: step, texts: texts, to: writer)
    }
    try writer.close()
    try numbering.assertWritten(at: path)
  }
}

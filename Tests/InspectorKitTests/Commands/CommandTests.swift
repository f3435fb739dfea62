import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit

/// Commands run in process on a trace held in memory: the paths a file seldom reaches
/// (replay failures, colour, filters combined).
final class CommandTests: XCTestCase {
  func testReplayReportsAKeyframeThatDiffersFromTheRebuiltState() {
    let source = SampleTrace.source()
    // A keyframe (step 4) that disagrees with the diffs before it.
    source.keyframeOverride = [4: SampleValues.state(count: 99)]
    let result = SampleTrace.run(["replay", "memory.rewind"], source: source)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.err, "inspector: replay check failed: keyframe mismatch (memory.rewind, step 4)\n")
    XCTAssertEqual(
      result.out,
      """
      step 4: child.toggled
      keyframe differs from the rebuilt state:
        (
      -   count: 99,
      +   count: 2,
          child: (
      -     isOn: false,
      +     isOn: true,
            … (1 unchanged)
          ),
          todos: [
      +     [id: 1]: (id: 1, title: "Milk", done: true)
          ],
      -   mode: .idle,
      +   mode: .loading(3),
          … (1 unchanged)
        )

      """)
  }

  func testReplayStopsAtTheFirstHashMismatch() {
    let source = SampleTrace.source()
    source.recordedHashOverride = [2: 1, 3: 2]
    let result = SampleTrace.run(["replay", "memory.rewind"], source: source)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.err, "inspector: replay check failed: state hash mismatch (memory.rewind, step 2)\n")
    XCTAssertTrue(result.out.hasPrefix("step 2: todos.added\nrecorded hash 0000000000000001, "))
  }

  func testLogFiltersCombine() {
    let result = SampleTrace.run([
      "log", "memory.rewind", "--grep", "^todos", "--origin", "user", "--path", "todos",
    ])
    XCTAssertEqual(
      result.out,
      "     2  00:00.500  user             todos.added(title: \"Milk\")  → todos[0]\n")
    XCTAssertEqual(result.status, 0)
  }

  func testLogLimitZeroPrintsNothing() {
    XCTAssertEqual(SampleTrace.run(["log", "memory.rewind", "--limit", "0"]).out, "")
    XCTAssertEqual(
      SampleTrace.run(["log", "memory.rewind", "--limit", "0", "--json"]).out, "[]\n")
  }

  func testColourIsUsedOnlyWhenTheTerminalAllowsIt() {
    let plain = SampleTrace.run(["diff", "memory.rewind", "1"])
    XCTAssertFalse(plain.out.contains("\u{1B}"))
    let coloured = SampleTrace.run(["diff", "memory.rewind", "1"], colour: true)
    XCTAssertTrue(coloured.out.contains("\u{1B}[31m-   count: 0,\u{1B}[0m"), coloured.out)
    XCTAssertTrue(coloured.out.hasPrefix("\u{1B}[1mdiff 0 → 1: counter.incrementTapped"))
  }

  func testFollowStopsWhenInterruptedAndPrintsNothingMore() {
    let source = SampleTrace.source()
    source.isComplete = false
    let result = SampleTrace.run(
      ["follow", "memory.rewind", "--from-start"], source: source, interrupted: true)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.out.split(separator: "\n").count, 1)
    XCTAssertEqual(result.err, "")
  }

  func testDiffOfAPathMissingOnOneSideShowsItAppearing() {
    let result = SampleTrace.run(["diff", "memory.rewind", "1", "2", "--path", "todos[0]"])
    XCTAssertEqual(
      result.out,
      """
      diff 1 → 2: todos.added
      changed: todos[0]
      - nil
      + (id: 1, title: "Milk", done: false)

      """)
  }
}

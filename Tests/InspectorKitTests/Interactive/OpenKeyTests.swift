import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit

/// Key handling of `inspector open`: scripted sequences on the sample trace, each checked
/// against the model and the frames it leads to.
final class OpenKeyTests: OpenSessionTestCase {
  func testArrowsPagesAndEndsMoveTheCursor() throws {
    let session = try session(height: 10)
    try session.press("jjj")
    XCTAssertEqual(session.model.cursor, 3)
    try session.press("k<down><down>")
    XCTAssertEqual(session.model.cursor, 4)
    try session.press("<pgdn>")
    XCTAssertEqual(session.model.cursor, 11)
    try session.press("G")
    XCTAssertEqual(session.model.cursor, 12)
    try session.press("<pgup>g")
    XCTAssertEqual(session.model.cursor, 0)
    try session.press("<end>")
    try assertFrame(session, named: "keys-end-small")
  }

  func testGoToStepAndItsErrors() throws {
    let session = try session()
    try session.press(":9<enter>")
    XCTAssertEqual(session.model.cursor, 9)
    try session.press(":99<enter>")
    XCTAssertEqual(session.model.cursor, 9)
    XCTAssertEqual(session.model.message, "step 99 out of range 0...12")
    try session.press(":x<enter>")
    XCTAssertEqual(session.model.message, #"not a step number: "x""#)
    XCTAssertEqual(try session.screen().lines.last, #"not a step number: "x""#)
    try session.press(":4<bs>5<enter>")
    XCTAssertEqual(session.model.cursor, 5)
    try session.press(":3<esc>")
    XCTAssertEqual(session.model.cursor, 5)
    XCTAssertNil(session.model.prompt)
  }

  func testSearchJumpsToHitsAndMarksThem() throws {
    let session = try session()
    try session.press("/todos\\.<enter>")
    XCTAssertEqual(session.model.cursor, 2)
    try session.press("n")
    XCTAssertEqual(session.model.cursor, 3)
    try session.press("nn")
    XCTAssertEqual(session.model.cursor, 10)
    try session.press("n")
    XCTAssertEqual(session.model.cursor, 10)
    XCTAssertEqual(session.model.message, "no hit after step 10")
    try session.press("N")
    XCTAssertEqual(session.model.cursor, 4)
    try session.finishWork()
    try assertFrame(session, named: "search-todos")
    try session.press("/nothing<enter>")
    XCTAssertEqual(session.model.message, "no action path matches /nothing/")
    try session.press("/(<enter>")
    XCTAssertEqual(session.model.message, #"invalid regular expression "(""#)
  }

  func testPathFilterListsOnlyTheStepsThatChangedThePath() throws {
    let session = try session()
    try session.press("f todos<enter>")
    XCTAssertEqual(session.model.pathFilter, "todos")
    XCTAssertEqual(session.model.cursor, 2)
    try session.finishWork()
    try assertFrame(session, named: "filter-todos")
    try session.press("jj")
    XCTAssertEqual(session.model.cursor, 4)
    try session.press("f nope<enter>")
    XCTAssertEqual(session.model.message, "no step changed nope")
    XCTAssertEqual(session.model.pathFilter, "todos")
    try session.press("f todos[<enter>")
    XCTAssertEqual(
      session.model.message,
      #"invalid path "todos[" at column 7: expected '"', a digit or 'id:' after '['"#)
    try session.press("f<enter>")
    XCTAssertNil(session.model.pathFilter)
    XCTAssertEqual(session.model.cursor, 4)
  }

  func testOriginFilterCyclesThroughUserAndEffects() throws {
    let session = try session(step: 5)
    try session.press("o")
    XCTAssertEqual(session.model.originFilter, .user)
    try session.press("j")
    XCTAssertEqual(session.model.cursor, 7)
    try session.press("o")
    XCTAssertEqual(session.model.originFilter, .effect)
    XCTAssertEqual(session.model.cursor, 9)
    try session.press("k")
    XCTAssertEqual(session.model.cursor, 6)
    try session.press("o")
    XCTAssertEqual(session.model.originFilter, .all)
  }

  func testBracketsFindTheStepsThatChangedTheValueUnderTheStateCursor() throws {
    let session = try session(step: 0)
    // The State tab's cursor on `count`, then back to the steps.
    try session.press("2l<down><esc>")
    try session.press("]")
    XCTAssertEqual(session.model.cursor, 1)
    try session.press("]")
    XCTAssertEqual(session.model.cursor, 1)
    XCTAssertEqual(session.model.message, "no change of count after step 1")
    // On `child.isOn` (open child first): changed at 5 and 11.
    try session.press("l<down><right><down><esc>g]")
    XCTAssertEqual(session.model.cursor, 5)
    try session.press("]")
    XCTAssertEqual(session.model.cursor, 11)
    try session.press("[")
    XCTAssertEqual(session.model.cursor, 5)
  }

  func testMarksAndTheTwoStepDiff() throws {
    let session = try session()
    try session.press("jma")
    XCTAssertEqual(session.model.marks["a"], 1)
    try session.press(":10<enter>d")
    XCTAssertEqual(session.model.comparisonBase, 1)
    try assertFrame(session, named: "diff-mark-a-to-10")
    try session.press("d")
    XCTAssertNil(session.model.comparisonBase)
    try session.press("'a")
    XCTAssertEqual(session.model.cursor, 1)
    try session.press("'z")
    XCTAssertEqual(session.model.message, "no mark z")
  }

  func testEnterOnAnEffectGoesToItsSteps() throws {
    let session = try session(step: 6)
    try session.press("4l")
    // On the sender: Enter goes to the step that started it.
    try session.press("<down><enter>")
    XCTAssertEqual(session.model.cursor, 5)
    // Step 5 started the timer, which sent step 6.
    try session.press("<down><down><down><enter>")
    XCTAssertEqual(session.model.cursor, 6)
  }

  func testMouseWheelClickTabsAndTimeline() throws {
    let session = try session(width: 100, height: 24)
    try session.handle(.mouse(.init(.wheelDown, row: 5, column: 3)))
    XCTAssertEqual(session.model.cursor, 3)
    try session.handle(.mouse(.init(.press, row: 8, column: 10)))
    XCTAssertEqual(session.model.cursor, 7)
    let stateTab = session.layout.tabs[1].columns.lowerBound
    try session.handle(.mouse(.init(.press, row: 0, column: stateTab + 1)))
    XCTAssertEqual(session.model.tab, .state)
    try session.handle(.mouse(.init(.press, row: session.layout.timelineRow, column: 99)))
    XCTAssertEqual(session.model.cursor, 12)
    try session.handle(.mouse(.init(.press, row: 3, column: 60)))
    XCTAssertEqual(session.model.focus, .detail)
    XCTAssertEqual(session.model[position: .state].cursor, 2)
  }

  func testResizeKeepsTheCursorVisible() throws {
    let session = try session(step: 12, height: 24)
    try session.handle(.resize(width: 60, height: 9))
    XCTAssertEqual(session.layout.width, 60)
    XCTAssertTrue(try session.screen().lines.contains { $0.hasPrefix(" 12 ") })
    try assertFrame(session, named: "resized-60x9")
  }

  func testTabsCycleAndQuitKeys() throws {
    let session = try session()
    try session.press("<tab><tab>")
    XCTAssertEqual(session.model.tab, .action)
    try session.press("<btab><btab><btab>")
    XCTAssertEqual(session.model.tab, .tree)
    try session.press("q")
    XCTAssertTrue(session.model.quits)
    let other = try self.session()
    try other.handle(.control("c"))
    XCTAssertTrue(other.model.quits)
  }

  /// A long random walk over every key (a fixed seed, so every run presses the same keys):
  /// after each key the cursor is a step of the trace and the frame has the screen's size;
  /// the last frame is compared with its snapshot.
  func testSeededKeySequenceKeepsTheViewConsistent() throws {
    let session = try session(width: 90, height: 20)
    var random = SplitMix(seed: 15)
    let keys: [Key] =
      Key.script("jkJK gG[]nNo?dD") + [.up, .down, .pageUp, .pageDown, .home, .end, .tab]
      + [.backTab, .left, .right, .enter, .escape, .character(" ")]
      + ["1", "2", "3", "4", "5"].map { Key.character(Character($0)) }
      + [.mouse(.init(.wheelDown, row: 4, column: 70)), .mouse(.init(.press, row: 6, column: 5))]
    let scripts = ["/todo<enter>", ":7<enter>", "ma", "'a", "f child<enter>", "f<enter>"]
    for _ in 0..<600 {
      if random.next() % 10 == 0 {
        try session.press(scripts[Int(random.next() % UInt64(scripts.count))])
      } else {
        try session.handle(keys[Int(random.next() % UInt64(keys.count))])
      }
      if session.model.quits { break }
      XCTAssertTrue((0...12).contains(session.model.cursor))
      let grid = try session.screen()
      XCTAssertEqual(grid.lines.count, 20)
      XCTAssertTrue(grid.lines.allSatisfy { DisplayWidth.of($0) <= 90 })
      try session.finishWork()
    }
    try assertFrame(session, named: "seeded-15")
  }
}

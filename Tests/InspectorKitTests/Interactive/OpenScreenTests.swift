import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit

/// Each tab and overlay of `inspector open` on the sample trace, as frames.
final class OpenScreenTests: OpenSessionTestCase {
  func testFirstFrameShowsTheStepsTheDiffTabTimelineAndStatus() throws {
    try assertFrame(try session(), named: "first-frame")
  }

  func testDiffTabComparesTheStepWithThePreviousOne() throws {
    let session = try session(step: 4)
    try assertFrame(session, named: "diff-step-4")
  }

  func testStateTabOutlineOpensWhatIsExpandedAndKeepsItAcrossSteps() throws {
    let session = try session(step: 9)
    // Into the State tab, down to `todos`, open it, open its first element.
    try session.press("2l<down><down><down><right><down><right>")
    try assertFrame(session, named: "state-step-9-todos-open")
    // Back to the steps, one step down: todo 2 is gone, what was open is still open.
    try session.press("<esc>j")
    try assertFrame(session, named: "state-step-10-todos-still-open")
  }

  func testActionTabShowsTheWholePayload() throws {
    let session = try session(step: 7)
    try session.press("3")
    try assertFrame(session, named: "action-step-7")
  }

  func testEffectsTabShowsTheSenderAndTheEffectsTheStepStarted() throws {
    let session = try session(step: 6)
    try session.press("4")
    try assertFrame(session, named: "effects-step-6")
  }

  func testTreeTabMarksTheNodesTheActionWentThroughWithCounts() throws {
    let session = try session(step: 6)
    try session.press("5")
    try assertFrame(session, named: "tree-step-6-counting")
    try session.finishWork()
    try assertFrame(session, named: "tree-step-6")
  }

  func testHelpOverlayListsEveryKey() throws {
    let session = try session(width: 100, height: 40)
    try session.press("?")
    try assertFrame(session, named: "help")
    let text = try session.screen().text
    for binding in KeyBindings.groups.flatMap(\.bindings) {
      XCTAssertTrue(text.contains(binding.keys + " "), binding.keys)
      XCTAssertTrue(text.contains(binding.action), binding.action)
    }
    try session.press("x")
    XCTAssertFalse(session.model.showsHelp)
  }

  func testPromptIsTypedOnTheStatusLine() throws {
    let session = try session()
    try session.press("/todo")
    XCTAssertEqual(try session.screen().lines.last, "/todo")
  }

  func testTooSmallTerminalSaysWhatItNeeds() throws {
    let session = try session(width: 40, height: 6)
    XCTAssertEqual(
      try session.screen().lines.prefix(2),
      ["terminal too small: 40×6", "inspector open needs 50×8"])
  }

  func testGapsAreMarkedInTheListTheTimelineAndTheDiff() throws {
    let session = try session(["--drop", "3", "--drop", "4"], step: 5)
    try assertFrame(session, named: "gap-step-5")
  }

  func testNarrowTerminalDropsTheTimeColumn() throws {
    let session = try session(step: 3, width: 60, height: 12)
    try assertFrame(session, named: "narrow-step-3")
  }
}

import Foundation
import XCTest

/// A trace whose recorder dropped steps 6 and 7, and one that also dropped its last two (11
/// and 12, after the recording finished with the writer behind): every command says so, and
/// counts what was sent and what was recorded.
final class GapsEndToEndTests: EndToEndTestCase {
  var gapped: URL!
  var trailing: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    gapped = try writeSample(named: "gapped.rewind", ["--drop", "6", "--drop", "7"])
    trailing = try writeSample(
      named: "trailing.rewind", ["--drop", "6", "--drop", "7", "--drop", "11", "--drop", "12"])
  }

  func testInfoCountsSentAndRecordedStepsWithADropAtTheEnd() throws {
    try assertInspector(["info", "TRACE"], trace: trailing)
  }
  func testLogShowsTheGapAtTheEnd() throws {
    try assertInspector(["log", "TRACE", "--from", "5"], trace: trailing)
  }
  func testReplayCountsTheStatesItRebuilt() throws {
    try assertInspector(["replay", "TRACE"], trace: trailing)
  }

  func testInfoCountsTheGap() throws { try assertInspector(["info", "TRACE"], trace: gapped) }
  func testLogMarksDroppedSteps() throws {
    try assertInspector(["log", "TRACE", "--from", "4", "--to", "9"], trace: gapped)
  }
  func testDiffAfterAGapIsAgainstTheLastRecordedStep() throws {
    try assertInspector(["diff", "TRACE", "8"], trace: gapped)
  }
  func testReplayResumesFromTheKeyframeAfterAGap() throws {
    try assertInspector(["replay", "TRACE"], trace: gapped)
  }
  func testShowOfADroppedStepIsOneLine() throws {
    try assertFails(
      ["show", "TRACE", "6"], trace: gapped,
      line: "inspector: step is not in the trace (gapped.rewind, step 6)")
  }
}

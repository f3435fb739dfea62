import Foundation
import XCTest

/// A trace whose recorder dropped steps 6 and 7: every command says so instead of failing.
final class GapsEndToEndTests: EndToEndTestCase {
  var gapped: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    gapped = try writeSample(named: "gapped.rewind", ["--drop", "6", "--drop", "7"])
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

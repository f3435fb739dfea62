import Foundation
import XCTest

/// `inspector replay` checks the effect table against the steps, without the feature's types:
/// a trace whose effects disagree with its steps fails the check (exit 1) and says how.
final class ReplayEffectsEndToEndTests: EndToEndTestCase {
  func testASentStepThatDoesNotNameItsEffectFailsTheCheck() throws {
    // The timer started by step 5 sent step 6; the table now says it sent step 8 (the user's).
    try sqlite(sample, "UPDATE effect_sends SET step = 8 WHERE step = 6")
    try assertInspector(["replay", "TRACE"])
  }

  func testACancellationOutOfRangeFailsTheCheck() throws {
    try sqlite(sample, "UPDATE effects SET cancelled_by_step = 40 WHERE cancelled_by_step = 11")
    try assertInspector(["replay", "TRACE"])
  }

  func testAnEffectEndingBeforeItStartsFailsTheCheck() throws {
    try sqlite(sample, "UPDATE effects SET end_ns = start_ns - 1 WHERE outcome = 'finished'")
    try assertInspector(["replay", "TRACE"])
  }
}

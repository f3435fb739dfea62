import XCTest

@testable import TraceRecorder

/// `StepBits` answers false only for steps never inserted: around its words' edges, for steps
/// it cannot hold as bits (negative ones, ones past its limit) and when empty.
final class StepBitsTests: XCTestCase {
  func testItHoldsExactlyTheInsertedStepsAroundItsWordsEdges() {
    var bits = StepBits()
    let inserted: Set = [0, 1, 62, 63, 64, 127, 128, 1_000, 4_095]
    for step in inserted { bits.insert(step) }
    for step in 0...5_000 {
      XCTAssertEqual(bits.mayContain(step), inserted.contains(step), "step \(step)")
    }
  }

  func testStepsItCannotHoldAsBitsAreAlwaysPossible() {
    var bits = StepBits()
    XCTAssertFalse(bits.mayContain(0))
    XCTAssertTrue(bits.mayContain(-1))
    XCTAssertFalse(bits.mayContain(StepBits.limit))
    XCTAssertFalse(bits.mayContain(.max))
    bits.insert(-5)
    bits.insert(.max)
    XCTAssertTrue(bits.mayContain(-5))
    XCTAssertTrue(bits.mayContain(.max))
    XCTAssertTrue(bits.mayContain(StepBits.limit))
    XCTAssertFalse(bits.mayContain(StepBits.limit - 1))
    XCTAssertFalse(bits.mayContain(3))
  }
}

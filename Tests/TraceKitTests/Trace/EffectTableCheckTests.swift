import Foundation
import TraceKit
import XCTest

final class EffectTableCheckTests: XCTestCase {
  private let first = UUID(uuidString: "5F0C1A2B-0000-4000-8000-000000000001")!
  private let second = UUID(uuidString: "6A0C1A2B-0000-4000-8000-000000000002")!

  /// An effect of `run` kind started by step 2 that sent step 4 and finished after it.
  private func effect(
    _ id: UUID, outcome: EffectOutcome = .finished, sent: [Int] = [4], kind: String = "run",
    parent: UUID? = nil, startedBy: Int = 2, startedAfter: Int = 2, endedAfter: Int? = 4
  ) -> EffectRecord {
    EffectRecord(
      id: id, startedByStep: startedBy, startNanos: 100, endNanos: 200, outcome: outcome,
      sentSteps: sent, kind: kind, parentID: parent, startedAfterStep: startedAfter,
      endedAfterStep: endedAfter)
  }

  private func problems(_ effects: [EffectRecord], origins: [Int: StepOrigin] = [:]) -> [String]
  {
    var check = EffectTableCheck(effects: effects, lastStep: 6, isComplete: true)
    for step in 0...6 { check.observe(step: step, origin: origins[step] ?? .user) }
    return check.problems
  }

  func testAConsistentTableHasNoProblem() {
    XCTAssertEqual(problems([effect(first)], origins: [4: .effect(first)]), [])
  }

  func testSentStepsMustNameTheEffectAndTheReverse() {
    XCTAssertEqual(
      problems([effect(first)], origins: [4: .send(step: 3), 5: .effect(first)]),
      [
        "effect 5F0C1A2B (started by step 2) sent step 4, whose origin is the .send of step 3",
        "effect 5F0C1A2B (started by step 2) does not list step 5 as sent, whose origin it is",
      ])
    XCTAssertEqual(
      problems([], origins: [3: .effect(second)]),
      ["step 3 names effect 6A0C1A2B as its origin, which the trace does not record"])
  }

  func testEffectsEndingBeforeTheyStartOrSendingOutsideTheirLife() {
    var backwards = effect(first, sent: [], endedAfter: 1)
    backwards.endNanos = 50
    XCTAssertEqual(
      problems([backwards]),
      [
        "effect 5F0C1A2B (started by step 2) ended (50 ns) before it started (100 ns)",
        "effect 5F0C1A2B (started by step 2) ended after step 1, before it started (after step 2)",
      ])
    XCTAssertEqual(
      problems(
        [effect(first, outcome: .cancelled(reason: "cancel", byStep: 4), sent: [2, 5])],
        origins: [2: .effect(first), 5: .effect(first)]),
      [
        "effect 5F0C1A2B (started by step 2) sent step 2, out of range after its start",
        "effect 5F0C1A2B (started by step 2) sent step 5, after it was cancelled by step 4",
      ])
  }

  func testCancellingStepsOutOfRangeAreNamed() {
    XCTAssertEqual(
      problems([effect(first, outcome: .cancelled(reason: "cancel", byStep: 9), sent: [])]),
      ["effect 5F0C1A2B (started by step 2) was cancelled by step 9, out of range 2...6"])
    XCTAssertEqual(
      problems([effect(first, outcome: .cancelled(reason: "cancel", byStep: 1), sent: [])]),
      ["effect 5F0C1A2B (started by step 2) was cancelled by step 1, out of range 2...6"])
    XCTAssertEqual(
      problems([effect(first, sent: [], startedBy: 8)]),
      ["effect 5F0C1A2B (started by step 8) was started by a step out of range 1...6"])
  }

  func testAPartNamesAConcatenationOfItsStep() {
    let part = effect(second, sent: [], parent: first, startedAfter: 3)
    XCTAssertEqual(
      problems([effect(first, sent: [], kind: "concatenation"), part]), [])
    XCTAssertEqual(
      problems([effect(first, sent: []), part]),
      ["effect 6A0C1A2B (started by step 2) names effect 5F0C1A2B (started by step 2) as its "
        + "concatenation"])
    XCTAssertEqual(
      problems([part]),
      ["effect 6A0C1A2B (started by step 2) names a concatenation the trace does not record"])
  }

  func testAnEffectStillRunningInAClosedTraceIsNamed() {
    XCTAssertEqual(
      problems([effect(first, outcome: .running, sent: [], endedAfter: nil)]),
      ["effect 5F0C1A2B (started by step 2) is still running in a trace that was closed"])
  }
}

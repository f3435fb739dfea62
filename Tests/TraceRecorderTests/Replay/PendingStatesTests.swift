import TraceKit
import XCTest

@testable import TraceRecorder

/// `PendingStates` hands its states out in order, each once, with their orders and steps in
/// place; the states not taken and every step go with the run.
final class PendingStatesTests: XCTestCase {
  /// A state whose end a test can see.
  private final class Tracked {
    let name: String
    init(_ name: String) { self.name = name }
  }

  private func step(_ number: Int) -> RecordedStep {
    RecordedStep(
      step: number, origin: .user, actionPath: "tap\(number)", stateHash: UInt64(number * 10),
      action: .string("tap\(number)"), actionID: number, dependencies: [])
  }

  func testStatesComeOutInOrderWithTheirOrdersAndSteps() {
    let run = PendingStates<String>(capacity: 3)
    run.append(order: 0, step: step(1), state: "a")
    run.append(order: 2, step: step(3), state: "b")
    var seen: [String] = []
    for index in 0..<run.count {
      let state = run.takeState(at: index)
      seen.append("\(run.orders[index]) \(run.steps[index].step) \(state)")
    }
    XCTAssertEqual(seen, ["0 1 a", "2 3 b"])
    XCTAssertEqual(run.steps[1].actionPath, "tap3")
    XCTAssertEqual(run.steps[1].stateHash, 30)
  }

  func testTheStatesNotTakenGoWithTheRunAndTakenOnesLive() {
    weak var first: Tracked?
    weak var second: Tracked?
    weak var third: Tracked?
    var taken: Tracked?
    do {
      let run = PendingStates<Tracked>(capacity: 3)
      let states = [Tracked("first"), Tracked("second"), Tracked("third")]
      (first, second, third) = (states[0], states[1], states[2])
      for (index, state) in states.enumerated() {
        run.append(order: index, step: step(index + 1), state: state)
      }
      taken = run.takeState(at: 0)
    }
    XCTAssertEqual(taken?.name, "first")
    XCTAssertNotNil(first)
    XCTAssertNil(second)
    XCTAssertNil(third)
    taken = nil
    XCTAssertNil(first)
  }
}

import ComposableCore
import Locking
import TraceRecorder
import XCTest

/// A counter with a nested part and an action that changes nothing.
private struct Tally: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var name = "a"
    var history: [Int] = []
  }

  enum Action: Equatable, Codable, Sendable {
    case add(Int)
    case noop
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case let .add(amount) = action {
      state.count += amount
      state.history.append(amount)
    }
    return .none
  }
}

@MainActor
final class PrintChangesTests: XCTestCase {
  func testPrintChangesWritesEachActionAndTheStateDiff() async {
    let output = Lock("")
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges { text in output.withLock { $0 += text } }
    }
    store.send(.add(2))
    store.send(.noop)
    XCTAssertEqual(
      output.withLock { $0 },
      """
      received action:
        .add(2)
        Tally.State(
      -   count: 0,
      +   count: 2,
          … (1 unchanged)
          history: [
      +     [0]: 2
          ]
        )

      received action:
        .noop
        (No state changes)


      """)
  }
}

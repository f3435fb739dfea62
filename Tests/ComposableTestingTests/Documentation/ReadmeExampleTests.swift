import ComposableCore
import ComposableTesting
import XCTest

// The counter of README.md's "The architecture in a page", verbatim, so the README's example
// keeps compiling and doing what the README says.
private struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var message: String?
  }
  enum Action: Equatable, Sendable, Codable {
    case plus, minus, loadTapped, loaded(String)
  }
  enum CancelID { case load }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .plus:
        state.count += 1
        return .none
      case .minus:
        state.count -= 1
        return .none
      case .loadTapped:
        // A second tap while loading cancels the first load.
        return .run { [count = state.count] send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded("\(count) is a fine number"))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case let .loaded(message):
        state.message = message
        return .none
      }
    }
  }
}

@MainActor
final class ReadmeExampleTests: XCTestCase {
  func testStoreExample() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.plus)
    XCTAssertEqual(store.count, 1)
  }

  func testLoad() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.plus) { $0.count = 1 }
    await store.send(.loadTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded("1 is a fine number")) { $0.message = "1 is a fine number" }
  }

  func testSecondLoadCancelsTheFirstInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.loadTapped)
    await clock.advance(by: .milliseconds(500))
    await store.send(.plus) { $0.count = 1 }
    await store.send(.loadTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded("1 is a fine number")) { $0.message = "1 is a fine number" }
  }
}

import ComposableCore
import ComposableTesting
import XCTest

/// A row whose effect reports back; the parent answers that report with a long effect of its
/// own, which a later parent action cancels by id.
private struct Board: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Cell.State> = [Cell.State(id: 1)]
    var watching = false
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Cell.Action>)
    case stopWatching
  }

  /// Not a dependency: the store must run with no dependency overridden.
  let clock: TestClock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows(.element(_, .reported)):
        state.watching = true
        return .run { _ in try await clock.sleep(for: .seconds(60)) }
          .cancellable(id: "watch")
      case .stopWatching:
        state.watching = false
        return .cancel(id: "watch")
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: AnyCasePath(Action.rows) {
      if case let .rows(action) = $0 { action } else { nil }
    }) {
      Cell()
    }
  }
}

private struct Cell: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
  }

  enum Action: Equatable, Sendable {
    case report, reported
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action == .report ? .run { send in await send(.reported) } : .none
  }
}

@MainActor
final class EffectSendDependenciesTests: XCTestCase {
  /// The row's effect runs with the row's navigation path; the parent reducer that handles
  /// what it sends must not, or the parent's effect is registered under the row's path and the
  /// parent's own `.cancel(id:)` misses it.
  func testAnActionFromAnEffectRunsTheReducersWithTheStoresDependencies() async {
    let clock = TestClock()
    let store = Store(initialState: Board.State()) { Board(clock: clock) }
    store.send(.rows(.element(id: 1, action: .report)))
    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(store.watching, true)
    XCTAssertEqual(clock.sleeperCount, 1)
    store.send(.stopWatching)
    await clock.waitForSleepers(0)
    XCTAssertEqual(store.watching, false)
  }
}

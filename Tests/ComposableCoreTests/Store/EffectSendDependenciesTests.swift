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

/// Who a reducer runs for: the store's value, or a row's override.
private enum OwnerKey: DependencyKey {
  static let liveValue = "store"
  static let testValue = "store"
}

extension DependencyValues {
  fileprivate var owner: String {
    get { self[OwnerKey.self] }
    set { self[OwnerKey.self] = newValue }
  }
}

/// Rows that run with an override of `owner`; the parent notes whom it runs for when a row's
/// effect reports.
private struct Ledger: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Cell.State> = [Cell.State(id: 1)]
    var ownerSeen: String?
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Cell.Action>)
  }

  @Dependency(\.owner) var owner

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .rows(.element(_, .reported)) = action {
        state.ownerSeen = owner
      }
      return .none
    }
    .forEach(\.rows, action: AnyCasePath(Action.rows) {
      if case let .rows(action) = $0 { action } else { nil }
    }) {
      Cell().dependency(\.owner, "row")
    }
  }
}

@MainActor
final class EffectSendDependenciesTests: XCTestCase {
  /// The row's effect keeps the row's override; the parent reducer that handles what it sends
  /// runs with the store's values.
  func testAnActionFromAnEffectIsNotReducedWithTheOverridesOfItsReducer() async {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    await store.send(.rows(.element(id: 1, action: .report))).finish()
    XCTAssertEqual(store.ownerSeen, "store")
  }

  /// The row's effect runs with the row's navigation path; the parent reducer that handles
  /// what it sends must not, or the parent's effect is registered under the row's path. (Since
  /// effects are registered under every prefix of their path, the parent's `.cancel(id:)`
  /// reaches it either way; the overrides test above is the one that needs the store's values.)
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

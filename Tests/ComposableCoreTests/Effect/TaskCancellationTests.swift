import ComposableCore
import ComposableTesting
import XCTest

/// Effects cancelled by `Task.cancel(id:)` from another effect, searches debounced with
/// `withTaskCancellation`, and several ids cancelled at once.
private struct Searcher: Reducer {
  struct State: Equatable {
    var ticks = 0
    var results: [String] = []
    var stopped = false
  }

  enum Action: Equatable, Sendable {
    case startTimer, tick, stopFromEffect, stopped
    case search(String), results(String), clear
    case startBoth, cancelBoth
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer")
    case .tick:
      state.ticks += 1
      return .none
    case .stopFromEffect:
      return .run { send in
        Task.cancel(id: "timer")
        await send(.stopped)
      }
    case .stopped:
      state.stopped = true
      return .none
    case let .search(query):
      return .run { send in
        try await withTaskCancellation(id: "search", cancelInFlight: true) {
          try await clock.sleep(for: .milliseconds(300))
          await send(.results(query))
        }
      }
    case let .results(query):
      state.results.append(query)
      return .none
    case .clear:
      return .cancel(id: "search")
    case .startBoth:
      return .merge(
        .run { _ in try await clock.sleep(for: .seconds(9)) }.cancellable(id: "a"),
        .run { _ in try await clock.sleep(for: .seconds(9)) }.cancellable(id: "b")
      )
    case .cancelBoth:
      return .cancel(ids: ["a", "b"])
    }
  }
}

@MainActor
final class TaskCancellationTests: XCTestCase {
  private func makeStore(_ clock: TestClock) -> TestStore<Searcher.State, Searcher.Action> {
    TestStore(initialState: Searcher.State()) {
      Searcher()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  func testTaskCancelInAnEffectCancelsTheStoresCancellableEffect() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stopFromEffect)
    await store.receive(.stopped) { $0.stopped = true }
    await clock.waitForSleepers(0)
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  /// The store's instrument is told of a `Task.cancel(id:)` as a cancellation by id that no
  /// step asked for, before the action the effect sends next.
  func testTaskCancelIsReportedThroughTheSeamWithoutAStep() async {
    let clock = TestClock()
    let transcript = Transcript()
    let store = Store(initialState: Searcher.State()) {
      Searcher().transcribed(into: transcript)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.startTimer)
    await clock.waitForSleepers(1)
    await store.send(.stopFromEffect).finish()
    await clock.waitForSleepers(0)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .startTimer
      end of step 1
      E1 started by step 1: run [timer]
      step 2 from user: .stopFromEffect
      end of step 2
      E2 started by step 2: run
      E1 cancelled: cancel(timer)
      step 3 from E2: .stopped
      end of step 3
      E2 finished
      """)
  }

  func testWithTaskCancellationDebouncesAndIsCancelledByCancelEffect() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.search("a"))
    await clock.waitForSleepers(1)
    await store.send(.search("ab"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(.results("ab")) { $0.results = ["ab"] }
    await store.send(.search("abc"))
    await clock.waitForSleepers(1)
    await store.send(.clear)
    await clock.waitForSleepers(0)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  func testCancelIDsCancelsEachID() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.startBoth)
    await clock.waitForSleepers(2)
    await store.send(.cancelBoth)
    await clock.waitForSleepers(0)
    await store.finish()
  }

  func testTaskCancelOutsideAnyStoreCancelsOperations() async {
    let clock = TestClock()
    let operation = Task {
      await withTaskCancellation(id: "outside") {
        (try? await clock.sleep(for: .seconds(1))) == nil ? "cancelled" : "slept"
      }
    }
    await clock.waitForSleepers(1)
    Task.cancel(id: "outside")
    let outcome = await operation.value
    XCTAssertEqual(outcome, "cancelled")
  }

  func testAParentCancelReachesARowsOperationButRowsDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = Store(initialState: Rows.State(rows: [Loader.State(id: 1), Loader.State(id: 2)]))
    {
      Rows()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.rows(.element(id: 1, action: .load)))
    store.send(.rows(.element(id: 2, action: .load)))
    await clock.waitForSleepers(2)
    store.send(.rows(.element(id: 1, action: .cancelFromEffect)))
    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(clock.sleeperCount, 1)
    XCTAssertEqual(store.rows.map(\.outcome), ["cancelled", nil])
    store.send(.cancelAllFromEffect)
    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(clock.sleeperCount, 0)
    XCTAssertEqual(store.rows.map(\.outcome), ["cancelled", "cancelled"])
  }
}

/// A row whose load runs under `withTaskCancellation(id: "load")`.
private struct Loader: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var outcome: String?
  }

  enum Action: Equatable, Sendable {
    case load, cancelFromEffect, finished(String)
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { send in
        let outcome = await withTaskCancellation(id: "load") {
          (try? await clock.sleep(for: .seconds(5))) == nil ? "cancelled" : "loaded"
        }
        await send(.finished(outcome))
      }
    case .cancelFromEffect:
      return .run { _ in Task.cancel(id: "load") }
    case let .finished(outcome):
      state.outcome = outcome
      return .none
    }
  }
}

private struct Rows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Loader.State>
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Loader.Action>)
    case cancelAllFromEffect
  }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      guard case .cancelAllFromEffect = action else { return .none }
      return .run { _ in Task.cancel(id: "load") }
    }
    .forEach(\.rows, action: AnyCasePath(Action.rows) {
      if case let .rows(action) = $0 { action } else { nil }
    }) {
      Loader()
    }
  }
}

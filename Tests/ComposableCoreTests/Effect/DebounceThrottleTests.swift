import ComposableCore
import ComposableTesting
import XCTest

/// A search field whose searches are debounced and a button whose taps are throttled.
private struct Field: Reducer {
  struct State: Equatable {
    var query = ""
    var searches: [String] = []
    var taps: [Int] = []
  }

  enum Action: Equatable, Sendable {
    case typed(String), search(String)
    case typedWithDependencyClock(String)
    case tapped(Int), tapLanded(Int)
  }

  let latest: Bool
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .typed(query):
      state.query = query
      return .send(.search(query)).debounce(id: "search", for: .seconds(1), clock: clock)
    case let .typedWithDependencyClock(query):
      state.query = query
      return .run { send in await send(.search(query)) }
        .debounce(id: "search", for: .seconds(1))
    case let .search(query):
      state.searches.append(query)
      return .none
    case let .tapped(number):
      return .send(.tapLanded(number)).throttle(id: "tap", for: .seconds(1), latest: latest)
    case let .tapLanded(number):
      state.taps.append(number)
      return .none
    }
  }
}

@MainActor
final class DebounceThrottleTests: XCTestCase {
  private func makeStore(_ clock: TestClock, latest: Bool = false) -> TestStoreOf<Field> {
    TestStore(initialState: Field.State()) {
      Field(latest: latest)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  func testDebounceStartsTheEffectOnceNoOtherCameForTheDuration() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.typed("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(500))
    await store.send(.typed("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(900))
    XCTAssertEqual(store.state.searches, [])
    await clock.advance(by: .milliseconds(100))
    await store.receive(.search("ab")) { $0.searches = ["ab"] }
    await store.finish()
  }

  func testDebounceWithoutAClockWaitsOnTheContinuousClockDependency() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.typedWithDependencyClock("x")) { $0.query = "x" }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await store.receive(.search("x")) { $0.searches = ["x"] }
    await store.finish()
  }

  func testDebounceOfNoneIsNone() {
    let effect = Effect<Field.Action>.none.debounce(id: "x", for: .seconds(1))
    guard case .none = effect.node else { return XCTFail("expected .none") }
  }

  func testThrottleSendsTheFirstActionOfAnIntervalAtItsEnd() async {
    let clock = TestClock()
    let store = makeStore(clock, latest: false)
    await store.send(.tapped(1))
    await store.receive(.tapLanded(1)) { $0.taps = [1] }
    await clock.advance(by: .milliseconds(200))
    await store.send(.tapped(2))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    await store.send(.tapped(3))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.tapLanded(2)) { $0.taps = [1, 2] }
    await clock.advance(by: .seconds(2))
    await store.send(.tapped(4))
    await store.receive(.tapLanded(4)) { $0.taps = [1, 2, 4] }
    await store.finish()
  }

  func testThrottleLatestSendsTheNewestActionOfAnIntervalAtItsEnd() async {
    let clock = TestClock()
    let store = makeStore(clock, latest: true)
    await store.send(.tapped(1))
    await store.receive(.tapLanded(1)) { $0.taps = [1] }
    await clock.advance(by: .milliseconds(200))
    await store.send(.tapped(2))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    await store.send(.tapped(3))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.tapLanded(3)) { $0.taps = [1, 3] }
    await store.finish()
  }
}

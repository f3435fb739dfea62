import ComposableClocks
import ComposableCore
import XCTest

/// A timer, a delayed save made of a concatenation, and an effect that waits on a stream.
private struct Ticker: Reducer {
  struct State: Equatable {
    var ticks = 0
    var saved = 0
  }

  enum Action: Equatable, Sendable {
    case start, stop, tick, save, saved, waitForever
  }

  let stream: AsyncStream<Void>
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer")
    case .stop:
      return .cancel(id: "timer")
    case .tick:
      state.ticks += 1
      return .none
    case .save:
      return .concatenate(
        .run { _ in try await clock.sleep(for: .seconds(2)) },
        .run { send in await send(.saved) }
      )
    case .saved:
      state.saved += 1
      return .none
    case .waitForever:
      return .run { [stream] _ in for await _ in stream {} }
    }
  }
}

@MainActor
final class StoreIdleEffectsTests: XCTestCase {
  func testWaitForIdleEffectsWaitsUntilEveryEffectSleepsOnTheClock() async {
    let clock = TestClock()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let store = Store(initialState: Ticker.State()) {
      Ticker(stream: stream)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.start)
    store.send(.save)
    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(clock.sleeperCount, 2)
    for _ in 0..<3 {
      XCTAssertTrue(clock.wakeNextSleeper(until: TestClock.Instant(offset: .seconds(3))))
      await store.waitForIdleEffects(on: clock)
    }
    XCTAssertEqual(store.state, Ticker.State(ticks: 2, saved: 1))
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(2)))
    store.send(.stop)
    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(clock.sleeperCount, 0)
    continuation.finish()
  }

  func testAnEffectWaitingOnSomethingElseIsReported() async {
    let clock = TestClock()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let store = Store(initialState: Ticker.State()) {
      Ticker(stream: stream)
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.waitForever)
    let (idle, issues) = await withIssueCollection {
      await store.waitForIdleEffects(on: clock, timeout: .milliseconds(20))
    }
    XCTAssertFalse(idle)
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Expected every effect of the store to sleep on the test clock, but 1 effect(s) were \
        running and 0 task(s) slept after 0.02 seconds.
        """
      ])
    continuation.finish()
    await task.finish()
  }

  func testAScopedStoreIsReported() async {
    let clock = TestClock()
    let store = Store(initialState: Ticker.State()) {
      Ticker(stream: AsyncStream { $0.finish() })
    }
    let scoped = store.scope(state: \.self, action: .identity)
    let (idle, issues) = await withIssueCollection {
      await scoped.waitForIdleEffects(on: clock)
    }
    XCTAssertFalse(idle)
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        "waitForIdleEffects(on:)" was called on a scoped store; call it on the root store, \
        which runs the effects.
        """
      ])
  }
}

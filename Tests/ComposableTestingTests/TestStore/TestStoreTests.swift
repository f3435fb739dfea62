import ComposableCore
import ComposableTesting
import XCTest

@MainActor
final class TestStoreTests: XCTestCase {
  func testSendAndReceiveAssertStateChanges() async {
    let store = TestStore(initialState: Timer.State()) { Timer() }
    await store.send(.load)
    await store.receive(.loaded("hello")) { $0.message = "hello" }
    XCTAssertEqual(store.state.message, "hello")
  }

  func testReceiveByCasePath() async {
    let store = TestStore(initialState: Timer.State()) { Timer() }
    await store.send(.load)
    await store.receive(.loaded) { $0.message = "hello" }
  }

  func testTimerWithTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) {
      Timer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await store.send(.stop) { $0.isRunning = false }
    await store.finish()
  }

  func testStateMismatchShowsStructuralDiff() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) {
        Timer()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.start) {
        $0.isRunning = false
        $0.ticks = 2
      }
      store.skipInFlightEffects()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        A state change does not match expectation:

          Timer.State(
        -   ticks: 2,
        +   ticks: 0,
        -   isRunning: false,
        +   isRunning: true,
            … (1 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ]
    )
    XCTAssertEqual(issues.map(\.line), [44])
  }

  func testUnexpectedStateChangeWithoutAssertionFails() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) {
        Timer()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.stop)
      await store.send(.start)
      store.skipInFlightEffects()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        State was not expected to change, but a change occurred:

          Timer.State(
            … (1 unchanged)
        -   isRunning: false,
        +   isRunning: true,
            … (1 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ]
    )
  }

  func testAssertionThatChangesNothingFails() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.nothing) { $0.ticks = 0 }
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to \
        state is expected, omit the trailing closure.
        """
      ]
    )
  }

  func testReceivingTheWrongActionShowsDiff() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.load)
      await store.receive(.loaded("bye")) { $0.message = "hello" }
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Received unexpected action:

          .loaded(
        -   "bye"
        +   "hello"
          )

        (Expected: -, Received: +)
        """
      ]
    )
  }

  func testReceiveTimesOutWhileEffectRuns() async {
    let clock = TestClock()
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) {
        Timer()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.start) { $0.isRunning = true }
      await store.receive(.tick, timeout: .milliseconds(50))
      await store.send(.stop) { $0.isRunning = false }
    }
    XCTAssertEqual(
      issues.map(\.message),
      ["Expected to receive .tick, but received none after 0.05 seconds."]
    )
  }

  func testReceiveWithNothingRunningFailsAtOnce() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.receive(.tick)
    }
    XCTAssertEqual(issues.map(\.message), ["Expected to receive .tick, but received none."])
  }

  func testSendingBeforeHandlingReceivedActionsFails() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.load)
      await store.finish()
      await store.send(.nothing)
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Must handle 1 received action before sending an action:

          .loaded("hello")
        """
      ]
    )
  }

  func testEffectsStillRunningFailAtTheEnd() async {
    let clock = TestClock()
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) {
        Timer()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.start) { $0.isRunning = true }
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        1 effect still running at the end of the test:

          • started by send(.start) at ComposableTestingTests/TestStoreTests.swift:195

        Effects must finish (or be cancelled) before the test ends. Wait with "finish()", \
        cancel long-living effects with an action that returns ".cancel(id:)", or call \
        "skipInFlightEffects()".
        """,
      ]
    )
  }

  func testActionsReceivedByTheEndAreListed() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.load)
      await store.finish()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        The store received 1 unexpected action by the end of the test:

          .loaded("hello")

        Handle them with "receive", or skip them with "skipReceivedActions()".
        """
      ]
    )
  }

  func testFinishTimesOutListingRunningEffects() async {
    let clock = TestClock()
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) {
        Timer()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.start) { $0.isRunning = true }
      await store.finish(timeout: .milliseconds(50))
      store.skipInFlightEffects()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Expected effects to finish, but 1 effect still running after 0.05 seconds:

          • started by send(.start) at ComposableTestingTests/TestStoreTests.swift:241
        """
      ]
    )
  }

  func testNonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) {
      Timer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    await store.send(.start)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stop)
    XCTAssertEqual(store.state.ticks, 3)
    await store.send(.load)
    await store.finish()
    store.skipReceivedActions()
    XCTAssertEqual(store.state.message, "hello")
  }

  func testNonExhaustiveStoreStillFailsOnWrongAssertion() async {
    let issues = await expectIssues {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      store.exhaustivity = .off
      await store.send(.load)
      await store.receive(.loaded("hello")) { $0.message = "nope" }
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        A state change does not match expectation:

          Timer.State(
            … (2 unchanged)
        -   message: "nope"
        +   message: "hello"
          )

        (Expected: -, Actual: +)
        """
      ]
    )
  }

  func testSkipInFlightEffectsLetsTheTestEnd() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) {
      Timer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start) { $0.isRunning = true }
    store.skipInFlightEffects()
  }
}

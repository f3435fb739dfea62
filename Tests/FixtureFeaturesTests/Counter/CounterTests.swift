import ComposableCore
import ComposableTesting
import CounterFeature
import Foundation
import XCTest

@MainActor
final class CounterTests: XCTestCase {
  func testPlusMinusAndResetChangeTheCount() async {
    let store = TestStore(initialState: Counter.State(message: "old")) { Counter() }
    await store.send(.plus) { $0.count = 1 }
    await store.send(.plus) { $0.count = 2 }
    await store.send(.minus) { $0.count = 1 }
    await store.send(.reset) {
      $0.count = 0
      $0.message = ""
    }
  }

  func testLoadMessageSleepsOnTheClockThenSucceeds() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(count: 3)) {
      Counter()
    } withDependencies: {
      $0.messageClient = .immediate
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.loadMessageTapped) { $0.isLoading = true }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(299))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.messageResponse("3 is odd and prime.")) {
      $0.isLoading = false
      $0.message = "3 is odd and prime."
      $0.lastLoadedAt = testNow
    }
  }

  func testLoadMessageFailureIsShown() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(count: -2)) {
      Counter()
    } withDependencies: {
      $0.messageClient = .immediate
      $0.continuousClock = clock
    }
    await store.send(.loadMessageTapped) { $0.isLoading = true }
    await clock.waitForSleepers(1)
    await clock.advance(by: Counter.loadDelay)
    await store.receive(.messageFailed("no message for -2")) {
      $0.isLoading = false
      $0.message = "Failed: no message for -2"
    }
  }

  func testCancelLoadCancelsTheEffectInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.messageClient = .immediate
      $0.continuousClock = clock
    }
    await store.send(.loadMessageTapped) { $0.isLoading = true }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await store.send(.cancelLoadTapped) {
      $0.isLoading = false
      $0.message = "Load cancelled"
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testCancelWhileIdleChangesNothing() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.cancelLoadTapped)
  }

  func testSecondLoadCancelsTheFirstInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.messageClient = .immediate
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.loadMessageTapped) { $0.isLoading = true }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    await store.send(.plus) { $0.count = 2 }
    await store.send(.loadMessageTapped)
    await clock.waitForSleepers(1)
    // The first load would have answered now, for count 1; it was cancelled.
    await clock.advance(by: .milliseconds(100))
    XCTAssertEqual(clock.sleeperCount, 1)
    await clock.advance(by: .milliseconds(200))
    await store.receive(.messageResponse("2 is even and prime.")) {
      $0.isLoading = false
      $0.message = "2 is even and prime."
      $0.lastLoadedAt = testNow
    }
  }

  func testLiveClientWaitsOnTheClockDependency() async throws {
    let clock = TestClock()
    let task = Task {
      try await withDependencies {
        $0.continuousClock = clock
      } operation: {
        try await MessageClient.live.fetch(4)
      }
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    let message = try await task.value
    XCTAssertEqual(message, "4 is even.")
  }

  func testMessagesFollowArithmetic() throws {
    XCTAssertEqual(try MessageClient.message(for: 0), "0 is even.")
    XCTAssertEqual(try MessageClient.message(for: 7), "7 is odd and prime.")
    XCTAssertEqual(try MessageClient.message(for: 9), "9 is odd.")
    XCTAssertThrowsError(try MessageClient.message(for: -1)) { error in
      XCTAssertEqual(error as? MessageError, MessageError(count: -1))
    }
  }

  func testStateAndActionsSurviveCoding() throws {
    let state = Counter.State(count: 4, isLoading: true, message: "m", lastLoadedAt: testNow)
    XCTAssertEqual(try roundTrip(state), state)
    let actions: [Counter.Action] = [
      .plus, .minus, .reset, .loadMessageTapped, .cancelLoadTapped,
      .messageResponse("ok"), .messageFailed("no"),
    ]
    XCTAssertEqual(try roundTrip(actions), actions)
    XCTAssertEqual(
      try json(Counter.Action.messageResponse("ok")), #"{"messageResponse":{"_0":"ok"}}"#)
  }
}

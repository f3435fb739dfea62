import ComposableClocks
import ComposableCore
import XCTest

@MainActor
final class TestClockTests: XCTestCase {
  func testAdvanceWakesSleepersInDeadlineOrder() async {
    let clock = TestClock()
    let order = Order()
    let late = Task {
      try await clock.sleep(for: .seconds(2))
      order.append("late")
    }
    let early = Task {
      try await clock.sleep(for: .seconds(1))
      order.append("early")
    }
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(999))
    XCTAssertEqual(order.values, [])
    await clock.advance(by: .seconds(2))
    _ = await (try? late.value, try? early.value)
    XCTAssertEqual(order.values, ["early", "late"])
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .milliseconds(2999)))
  }

  func testRunAdvancesUntilNoSleeperIsLeft() async throws {
    // Every sleeper is asleep before `run` starts, so the test does not lean on how long `run`
    // lets woken tasks run (a heuristic): each task wakes once, at its own deadline.
    let clock = TestClock()
    let order = Order()
    let tasks = [30, 10, 20].map { seconds in
      Task {
        try await clock.sleep(for: .seconds(seconds))
        order.append("\(seconds)")
      }
    }
    await clock.waitForSleepers(3)
    await clock.run()
    for task in tasks { try await task.value }
    XCTAssertEqual(order.values, ["10", "20", "30"])
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(30)))
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testCancellingASleeperThrowsCancellation() async {
    let clock = TestClock()
    let task = Task {
      try await clock.sleep(for: .seconds(1))
    }
    task.cancel()
    let result = await task.result
    XCTAssertThrowsError(try result.get()) { error in
      XCTAssertTrue(error is CancellationError)
    }
    XCTAssertEqual(clock.sleeperCount, 0)
  }
}

@MainActor
private final class Order {
  var values: [String] = []
  func append(_ value: String) { values.append(value) }
}

@MainActor
final class TestClockWakingTests: XCTestCase {
  func testEqualDeadlinesWakeInTheOrderTheyFellAsleep() async {
    let clock = TestClock()
    let order = Order()
    var tasks: [Task<Void, any Error>] = []
    for name in ["a", "b", "c"] {
      tasks.append(
        Task {
          try await clock.sleep(for: .seconds(1))
          order.append(name)
        })
      await clock.waitForSleepers(tasks.count)
    }
    let end = clock.now.advanced(by: .seconds(1))
    for task in tasks {
      XCTAssertTrue(clock.wakeNextSleeper(until: end))
      _ = await task.result
    }
    XCTAssertFalse(clock.wakeNextSleeper(until: end))
    XCTAssertEqual(order.values, ["a", "b", "c"])
  }

  func testWakeNextSleeperMovesTimeToTheDeadlineOrToTheLimit() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
    await clock.waitForSleepers(1)
    XCTAssertEqual(clock.nextDeadline, TestClock.Instant(offset: .seconds(5)))
    XCTAssertFalse(clock.wakeNextSleeper(until: TestClock.Instant(offset: .seconds(2))))
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(2)))
    XCTAssertTrue(clock.wakeNextSleeper(until: TestClock.Instant(offset: .seconds(9))))
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(5)))
    _ = await sleeper.result
    XCTAssertNil(clock.nextDeadline)
  }

  func testWaitForSleepersReportsWhenTheCountIsNotReached() async {
    let clock = TestClock()
    let (reached, issues) = await withIssueCollection {
      await clock.waitForSleepers(1, timeout: .milliseconds(20))
    }
    XCTAssertFalse(reached)
    XCTAssertEqual(
      issues.map(\.message),
      ["Expected 1 task(s) sleeping on the test clock, but 0 did after 0.02 seconds."])
    XCTAssertEqual(issues.first?.fileID, "ComposableClocksTests/TestClockTests.swift")
  }
}

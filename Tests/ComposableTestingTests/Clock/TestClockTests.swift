import ComposableTesting
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
    await clock.advance(by: .milliseconds(999))
    XCTAssertEqual(order.values, [])
    await clock.advance(by: .seconds(2))
    _ = await (try? late.value, try? early.value)
    XCTAssertEqual(order.values, ["early", "late"])
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .milliseconds(2999)))
  }

  func testRunAdvancesUntilNoSleeperIsLeft() async throws {
    let clock = TestClock()
    let task = Task {
      for _ in 0..<3 {
        try await clock.sleep(for: .seconds(10))
      }
      return clock.now
    }
    await clock.run()
    let end = try await task.value
    XCTAssertEqual(end, TestClock.Instant(offset: .seconds(30)))
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

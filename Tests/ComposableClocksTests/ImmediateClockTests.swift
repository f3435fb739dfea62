import ComposableClocks
import XCTest

final class ImmediateClockTests: XCTestCase {
  func testSleepReturnsAtOnceAndMovesTime() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(5))
    try await clock.sleep(for: .milliseconds(250))
    XCTAssertEqual(clock.now, ImmediateClock.Instant(offset: .milliseconds(5250)))
    try await clock.sleep(until: ImmediateClock.Instant(offset: .seconds(1)), tolerance: nil)
    XCTAssertEqual(clock.now, ImmediateClock.Instant(offset: .milliseconds(5250)))
  }

  func testSleepInACancelledTaskThrowsCancellation() async {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    let result = await task.result
    XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
    XCTAssertEqual(clock.now, ImmediateClock.Instant())
  }
}

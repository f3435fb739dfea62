import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A feature that sleeps two seconds on its clock, then says so.
private struct Napper: Reducer {
  struct State: Codable, Equatable, Sendable {
    var naps = 0
    var isAwake = true
  }

  enum Action: Codable, Equatable, Sendable {
    case nap, poke, wokeUp
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .nap:
      state.isAwake = false
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(2))
        await send(.wokeUp)
      }
    case .poke:
      state.naps += 1
      return .none
    case .wokeUp:
      state.isAwake = true
      return .none
    }
  }
}

/// `Recorder.Configuration.clock`: a session on a virtual clock records the virtual time.
@MainActor
final class RecorderClockTests: XCTestCase {
  func testATraceRecordsTheTimeOfTheClockItIsGiven() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("virtual.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path, configuration: .init(clock: clock))
    let store = Store(initialState: Napper.State()) {
      Napper().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    let nap = store.send(.nap)
    while clock.sleeperCount == 0 { await Task.yield() }
    await clock.advance(by: .milliseconds(500))
    store.send(.poke)
    await clock.advance(by: .milliseconds(1_500))
    // Until the effect's operation returned, not only until it sent `.wokeUp`: waiting for
    // `isAwake` alone let `finish()` come first now and then, leaving its end out of the trace.
    await nap.finish()
    XCTAssertTrue(store.state.isAwake)
    recorder.finish()
    await recorder.waitUntilFinished()

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 0, to: 10)
    XCTAssertEqual(rows.map(\.actionPath), ["", "nap", "poke", "wokeUp"])
    XCTAssertEqual(rows.map(\.monotonicNanos), [0, 0, 500_000_000, 2_000_000_000])
    // Wall times follow the same clock from step 0's.
    XCTAssertEqual(rows[3].wallTime - rows[0].wallTime, 2, accuracy: 1e-6)
    let effect = try XCTUnwrap(try reader.effects().first)
    XCTAssertEqual(effect.startNanos, 0)
    XCTAssertEqual(effect.endNanos, 2_000_000_000)
    XCTAssertEqual(effect.sentSteps, [3])
  }

  /// On the monotonic clock a step's time is the core's reading as its reducer starts: never
  /// before the step before it, never after the effects the step starts.
  func testOnTheMonotonicClockAStepIsTimedBeforeItsEffectsAndAfterTheStepBefore() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("monotonic.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Napper.State()) {
      Napper().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.poke)
    let nap = store.send(.nap)
    while clock.sleeperCount == 0 { await Task.yield() }
    store.send(.poke)
    await clock.advance(by: .seconds(2))
    // Until the effect's operation returned, not only until it sent `.wokeUp`: finishing the
    // recording in between leaves its end out of the trace.
    await nap.finish()
    XCTAssertTrue(store.state.isAwake)
    recorder.finish()
    await recorder.waitUntilFinished()

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 0, to: 10)
    XCTAssertEqual(rows.map(\.actionPath), ["", "poke", "nap", "poke", "wokeUp"])
    let times = rows.map(\.monotonicNanos)
    XCTAssertEqual(times, times.sorted())
    let effect = try XCTUnwrap(try reader.effects().first)
    XCTAssertEqual(effect.sentSteps, [4])
    let start = try XCTUnwrap(effect.startNanos)
    XCTAssertLessThanOrEqual(times[2], start)
    XCTAssertLessThanOrEqual(start, times[3])
    // It sent step 4 before its operation returned.
    XCTAssertLessThanOrEqual(times[4], try XCTUnwrap(effect.endNanos))
  }
}

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

/// A feature whose effects start in each way the core launches them: one cancelled in flight
/// by its successor, two merged, and a concatenation whose task starts its parts later.
private struct Lookup: Reducer {
  struct State: Codable, Equatable, Sendable {
    var sends = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case search, both, inTurn
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.sends += 1
    switch action {
    case .search:
      return nap(seconds: 10).cancellable(id: "search", cancelInFlight: true)
    case .both:
      return .merge(nap(seconds: 10), nap(seconds: 10))
    case .inTurn:
      return .concatenate(nap(seconds: 1), nap(seconds: 10))
    }
  }

  private func nap(seconds: Int) -> Effect<Action> {
    .run { [clock] _ in try await clock.sleep(for: .seconds(seconds)) }
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
    // Until the effect's operation returned, not only until it sent `.wokeUp` (the state shows
    // that first): finishing the recording in between leaves its end out of the trace.
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

  /// On the monotonic clock the effects a reducer returns start as it returns: at the core's
  /// reading then, or at a later reading the recorder took before they launched (the end of
  /// the effect they cancelled in flight). A concatenation's later part reads the clock.
  func testOnTheMonotonicClockAReducersEffectsStartAtItsEndReading() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("launch.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Lookup.State()) {
      Lookup().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    let sends = [store.send(.search), store.send(.search), store.send(.both), store.send(.inTurn)]
    // The concatenation's first part sleeps (the earliest deadline) beside the three others.
    let firstPartDue = clock.now.advanced(by: .seconds(1))
    while clock.nextDeadline != firstPartDue || clock.sleeperCount != 4 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    // The first part was woken as time moved: four sleep again once the second one does.
    await clock.waitForSleepers(4)
    recorder.finish()
    await recorder.waitUntilFinished()

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 0, to: 10)
    XCTAssertEqual(rows.map(\.actionPath), ["", "search", "search", "both", "inTurn"])
    let reducerEnds = rows.map { $0.monotonicNanos + $0.reducerNanos }
    let effects = try reader.effects()
    XCTAssertEqual(effects.map(\.startedByStep), [1, 2, 3, 3, 4, 4, 4])
    XCTAssertEqual(
      effects.map(\.kind), ["run", "run", "run", "run", "concatenation", "run", "run"])
    let starts = try effects.map { try XCTUnwrap($0.startNanos) }
    XCTAssertEqual(starts[0], reducerEnds[1])
    // Cancelled in flight as its successor launched: that reading is the successor's start.
    XCTAssertEqual(effects[0].outcome, .cancelled(reason: "cancelInFlight", byStep: 2))
    let cancelled = try XCTUnwrap(effects[0].endNanos)
    XCTAssertGreaterThanOrEqual(cancelled, reducerEnds[2])
    XCTAssertEqual(starts[1], cancelled)
    XCTAssertEqual(starts[2], reducerEnds[3])
    XCTAssertEqual(starts[3], reducerEnds[3])
    XCTAssertEqual(starts[4], reducerEnds[4])
    // The concatenation's parts started in its task, after the send: their own readings.
    XCTAssertEqual(effects[5].parentID, effects[4].id)
    XCTAssertEqual(effects[6].parentID, effects[4].id)
    XCTAssertGreaterThan(starts[5], starts[4])
    XCTAssertGreaterThanOrEqual(starts[6], try XCTUnwrap(effects[5].endNanos))
    // The four effects still asleep end here, after the trace was read: they would sleep on
    // the test clock, holding the store, to the end of the process.
    for send in sends { send.cancel() }
    for send in sends { await send.finish() }
    XCTAssertEqual(clock.sleeperCount, 0)
  }
}

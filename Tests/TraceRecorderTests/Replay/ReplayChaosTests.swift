import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A search whose results come from a slow service; the bug forgets `cancelInFlight`, so an
/// older query's results can arrive after a newer one's and win.
private struct Lookup: Reducer {
  struct State: Codable, Equatable, Sendable {
    var query = ""
    var results: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case queryChanged(String)
    case response([String])
  }

  enum CancelID: Hashable, Sendable { case search }

  var forgetsCancelInFlight = false

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.response([query + " 1", query + " 2"]))
      }
      .cancellable(id: CancelID.search, cancelInFlight: !forgetsCancelInFlight)
    case .response(let results):
      state.results = results
      return .none
    }
  }
}

@MainActor
final class ReplayChaosTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  /// Types "a", then "ab" while "a" is still being looked up; the lookups finish in order.
  private func record(_ lookup: Lookup) async throws -> String {
    try await TraceRecording.record(
      lookup, initialState: Lookup.State(), in: directory,
      name: lookup.forgetsCancelInFlight ? "buggy.rewind" : "fixed.rewind"
    ) {
      store, clock in
      store.send(.queryChanged("a"))
      await waitUntil("the first lookup sleeps") { clock.sleeperCount == 1 }
      store.send(.queryChanged("ab"))
      await waitUntil("the lookups sleep") {
        clock.sleeperCount == (lookup.forgetsCancelInFlight ? 2 : 1)
      }
      await clock.advance(by: .seconds(1))
      await waitUntil("the results arrived") { store.state.results == ["ab 1", "ab 2"] }
    }
  }

  func testChaosFindsTheStaleResultsThatArriveLastAndShrinksTheSchedule() async throws {
    let path = try await record(Lookup(forgetsCancelInFlight: true))
    let replay = Replay(trace: path, reducer: Lookup(forgetsCancelInFlight: true))
    XCTAssertEqual(try replay.run(), .matched(steps: 4))
    let report = try replay.chaos(seed: 1, runs: 20)
    XCTAssertEqual(report.runs, 20)
    XCTAssertEqual(report.deliveries, 2)
    let schedule = try XCTUnwrap(report.differing.first)
    XCTAssertEqual(schedule.movedDeliveries, 1)
    XCTAssertEqual(schedule.firstDifferingStep, 3)
    XCTAssertEqual(
      schedule.scheduled.map(\.description),
      [
        "2  user  queryChanged", "3  effect of step 2  response",
        "4  effect of step 1  response  (moved)",
      ])
    XCTAssertEqual(
      schedule.description,
      """
      seed \(schedule.seedText) (run \(schedule.run)): 1 delivery moved; the state first \
      differs after step 3
        recorded                         this order
        2  user  queryChanged            2  user  queryChanged
        3  effect of step 1  response    3  effect of step 2  response
        4  effect of step 2  response    4  effect of step 1  response  (moved)
        final state (recorded: -, this order: +):
          (
            … (1 unchanged)
            results: [
        -     [0]: "ab 1",
        +     [0]: "a 1",
        -     [1]: "ab 2"
        +     [1]: "a 2"
            ]
          )
        reproduce: chaos(seed: \(schedule.seedText), runs: 1)
      """)
    // Its seed alone runs the same schedule again.
    let again = try replay.chaos(seed: schedule.seed, runs: 1)
    XCTAssertEqual(again.differing.map(\.scheduled), [schedule.scheduled])
    XCTAssertEqual(again.differing.first?.seed, schedule.seed)
  }

  func testTheFixHasNoOrderThatEndsDifferently() async throws {
    let buggy = try await record(Lookup(forgetsCancelInFlight: true))
    // The fix cancels the first lookup in flight: replayed against the buggy trace, no order
    // of its deliveries ends differently (the stale one is dropped).
    let report = try Replay(trace: buggy, reducer: Lookup()).chaos(seed: 1, runs: 50)
    XCTAssertEqual(report.differing, [])
    XCTAssertEqual(
      report.description,
      "Chaos replay: 50 schedules of 2 deliveries, every one ends as the recording did.")
    // Recorded with the fix, only one lookup ever answers.
    let fixed = try await record(Lookup())
    XCTAssertEqual(
      try Replay(trace: fixed, reducer: Lookup()).chaos(seed: 7, runs: 50).differing, [])
  }
}

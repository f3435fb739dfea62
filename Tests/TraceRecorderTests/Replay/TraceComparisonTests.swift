import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A tally whose effect reports back: two recordings of it are compared.
private struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var reported: [Int] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
    case report
    case reported(Int)
  }

  /// The "fix" of the second recording: adds twice as much.
  var doubles = false

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.count += doubles ? 2 * amount : amount
      return .none
    case .report:
      let count = state.count
      return .run { send in await send(.reported(count)) }
    case .reported(let count):
      state.reported.append(count)
      return .none
    }
  }
}

@MainActor
final class TraceComparisonTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  private func record(
    _ name: String, _ tally: Tally = Tally(), actions: [Tally.Action]
  ) async throws -> TraceReader {
    let path = try await TraceRecording.record(
      tally, initialState: Tally.State(), in: directory, name: name
    ) { store, _ in
      for action in actions { await store.send(action).finish() }
    }
    return try TraceReader(path: path)
  }

  func testTwoRunsOfTheSameSessionAreTheSame() async throws {
    let actions: [Tally.Action] = [.add(1), .report, .add(2), .report]
    let result = try TraceComparison.compare(
      try await record("a.rewind", actions: actions),
      try await record("b.rewind", actions: actions))
    XCTAssertNil(result.difference)
    // Steps 0…6: the effects' ids differ, their places do not.
    XCTAssertEqual(result.sameSteps, 7)
  }

  func testTheFirstDifferentActionIsNamedWithItsContext() async throws {
    let result = try TraceComparison.compare(
      try await record("a.rewind", actions: [.add(1), .report, .add(2)]),
      try await record("b.rewind", actions: [.add(1), .report, .add(3)]))
    XCTAssertEqual(result.difference, .action(step: 4))
    XCTAssertEqual(result.sameSteps, 4)
    XCTAssertEqual(
      result.context.map { pair in
        "\(pair.a?.step ?? -1) \(pair.a?.originText ?? "") \(pair.a?.actionPath ?? "")"
      },
      ["1 user add", "2 user report", "3 effect of step 2 reported", "4 user add"])
    XCTAssertEqual(result.context.last?.a?.action, .enumCase("add", [TraceField("_0", .int(2))]))
    XCTAssertEqual(result.context.last?.b?.action, .enumCase("add", [TraceField("_0", .int(3))]))
    XCTAssertNil(result.states)
  }

  func testTheSameActionLeavingAnotherStateIsAStateDifference() async throws {
    let result = try TraceComparison.compare(
      try await record("a.rewind", actions: [.report, .add(1)]),
      try await record("b.rewind", Tally(doubles: true), actions: [.report, .add(1)]))
    XCTAssertEqual(result.difference, .state(step: 3))
    let states = try XCTUnwrap(result.states)
    XCTAssertEqual(TraceDiff.changes(from: states.a, to: states.b).count, 1)
  }

  func testATraceThatGoesOnIsNamed() async throws {
    let short = try await record("a.rewind", actions: [.add(1)])
    let long = try await record("b.rewind", actions: [.add(1), .add(1)])
    XCTAssertEqual(try TraceComparison.compare(short, long).difference, .ends(step: 1, first: .a))
    XCTAssertEqual(try TraceComparison.compare(long, short).difference, .ends(step: 1, first: .b))
  }

  func testRecordedTracesPassTheEffectTableCheck() async throws {
    let reader = try await record("a.rewind", actions: [.add(1), .report, .report])
    let info = try reader.info()
    var check = EffectTableCheck(
      effects: try reader.effects(), lastStep: info.stepCount, isComplete: info.isComplete)
    for row in try reader.rows(from: 0, to: info.stepCount) {
      check.observe(step: row.step, origin: row.origin)
    }
    XCTAssertEqual(check.problems, [])
  }
}

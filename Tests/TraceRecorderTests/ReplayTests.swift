import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

@MainActor
final class ReplayTests: XCTestCase {
  func testReplayOfARecordedSessionMatchesEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let result = try Replay(trace: path, reducer: RecordedFeature()).run()
    XCTAssertEqual(result, .matched(steps: 17))
    XCTAssertEqual(
      result.description,
      "Replayed 17 steps: every state, effect and dependency read matches the trace.")
  }

  func testATraceOfFormatVersion1IsRefusedWithTheReason() throws {
    let path = FixtureTraces.path("version-1/home.rewind")
    XCTAssertThrowsError(try Replay(trace: path, reducer: RecordedFeature()).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): it was recorded in trace format version 1, which encoded dates "
          + "as numbers and left nil fields out, so no state re-encoded today hashes as it did; "
          + "record it again to replay it (the inspector still reads it)")
    }
  }

  func testReplayFromAGivenInitialStateMatches() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let result = try Replay(
      trace: path, reducer: RecordedFeature(), initialState: RecordedFeature.State()
    ).run()
    XCTAssertEqual(result, .matched(steps: 17))
  }

  func testChangedReducerDivergesAtTheStepWhereItsBehaviourChanged() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let result = try Replay(trace: path, reducer: RecordedFeature(maxResults: 1)).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(divergence.step, 9)
    XCTAssertEqual(divergence.actionPath, "searchResponse")
    XCTAssertEqual(divergence.matchedSteps, 8)
    XCTAssertEqual(divergence.changes, [.remove(try TracePath(parsing: "results[1]"))])
    XCTAssertEqual(
      divergence.description,
      """
      Step 9 (searchResponse) diverged from the trace (8 steps matched before it):
        the state after it differs from the recorded one (1 change, below)

        (
          … (2 unchanged)
          results: [
            … (1 unchanged)
      -     [1]: "ab2"
          ],
          … (7 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
  }

  func testRenamedActionCaseIsNamedInsteadOfFailingObscurely() async throws {
    let path = try await recordCounter()
    XCTAssertThrowsError(try Replay(trace: path, reducer: CounterRenamedCase()).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the action of step 2 (decrement) does not fit "
          + "TraceRecorderTests.CounterRenamedCase.Action: the trace has the case .decrement, "
          + "which the type does not have (its cases: .increment, .subtract): renamed or "
          + "removed since recording")
    }
  }

  func testAddedStateFieldIsNamed() async throws {
    let path = try await recordCounter()
    XCTAssertThrowsError(try Replay(trace: path, reducer: CounterAddedField()).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the recorded state does not fit "
          + "TraceRecorderTests.CounterAddedField.State: field `step` is in the type but not "
          + "in the trace (added since recording)")
    }
  }

  func testAddedStateFieldIsNamedWhenTheInitialStateIsGiven() async throws {
    let path = try await recordCounter()
    XCTAssertThrowsError(
      try Replay(
        trace: path, reducer: CounterAddedField(), initialState: CounterAddedField.State()
      ).run()
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the recorded state does not fit "
          + "TraceRecorderTests.CounterAddedField.State: field `step` is in the type but not "
          + "in the trace (added since recording)")
    }
  }

  func testRemovedStateFieldIsNamed() async throws {
    let path = try await recordCounter()
    XCTAssertThrowsError(try Replay(trace: path, reducer: CounterRenamedField()).run()) {
      error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the recorded state does not fit "
          + "TraceRecorderTests.CounterRenamedField.State: field `total` is in the type but "
          + "not in the trace (added since recording)")
    }
    XCTAssertThrowsError(
      try Replay(
        trace: path, reducer: CounterRenamedField(), initialState: CounterRenamedField.State()
      ).run()
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the recorded state does not fit "
          + "TraceRecorderTests.CounterRenamedField.State: field `count` is in the trace but "
          + "not in the type, and field `total` is in the type but not in the trace (renamed "
          + "or replaced since recording)")
    }
  }

  func testMissingTraceIsAClearError() {
    XCTAssertThrowsError(try Replay(trace: "/nonexistent/t.rewind", reducer: CounterV1()).run())
    { error in
      XCTAssertEqual(
        "\(error)", "Cannot replay /nonexistent/t.rewind: /nonexistent/t.rewind: no such file")
    }
  }

  private var directory: TemporaryDirectory?

  /// Records increment, decrement, increment with `CounterV1`.
  private func recordCounter() async throws -> String {
    let directory = try TemporaryDirectory()
    self.directory = directory
    let path = directory.path("counter.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    store.send(.increment)
    store.send(.decrement)
    store.send(.increment)
    await recorder.waitUntilFinished()
    XCTAssertEqual(try Replay(trace: path, reducer: CounterV1()).run(), .matched(steps: 3))
    return path
  }
}

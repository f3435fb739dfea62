import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Typed replay checks the states on a second thread, up to a few runs of steps behind the
/// reducer. Its outcome must be the one of checking each step in full before the next: a
/// state that differs is reported at its step even when the reducer thread has met an effect
/// that differs, a failure to encode the state, or a trace it cannot read, at a later step.
@MainActor
final class PipelinedReplayTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  func testTheRecordedReducerMatchesEveryStep() async throws {
    let path = try await record(steps: 40)
    XCTAssertEqual(try Replay(trace: path, reducer: Tally()).run(), .matched(steps: 40))
  }

  func testAStateThatDiffersIsReportedBeforeALaterEffectThatDiffers() async throws {
    let path = try await record(steps: 40)
    let result = try Replay(trace: path, reducer: Tally(miscounts: 15, forgetsSave: true)).run()
    XCTAssertEqual(
      result.description,
      """
      Step 15 (add) diverged from the trace (14 steps matched before it):
        the state after it differs from the recorded one (2 changes, below)

        (
      -   total: 120,
      +   total: 121,
          totals: [
            … (14 unchanged)
      -     [14]: 120
      +     [14]: 121
          ],
          … (2 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
  }

  func testAnEffectThatDiffersAloneIsReportedAtItsStep() async throws {
    let path = try await record(steps: 40)
    let result = try Replay(trace: path, reducer: Tally(forgetsSave: true)).run()
    XCTAssertEqual(
      result.description,
      """
      Step 20 (save) diverged from the trace (19 steps matched before it):
        the reducer started no effect; the trace recorded 1 effect:
          recorded  `save` (run, step 20, \(Self.saveLocation))
      """)
  }

  func testAStateAndAnEffectThatDifferAtOneStepAreReportedTogether() async throws {
    let path = try await record(steps: 40)
    let result = try Replay(trace: path, reducer: Tally(forgetsSave: true, savesTwice: true)).run()
    XCTAssertEqual(
      result.description,
      """
      Step 20 (save) diverged from the trace (19 steps matched before it):
        the reducer started no effect; the trace recorded 1 effect:
          recorded  `save` (run, step 20, \(Self.saveLocation))
        the state after it differs from the recorded one (1 change, below)

        (
          … (2 unchanged)
      -   saves: 1,
      +   saves: 2,
          … (1 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
  }

  func testAStateThatDiffersInTheLastStepIsReported() async throws {
    let path = try await record(steps: 40)
    let result = try Replay(trace: path, reducer: Tally(miscounts: 40)).run()
    XCTAssertEqual(
      result.description,
      """
      Step 40 (add) diverged from the trace (39 steps matched before it):
        the state after it differs from the recorded one (2 changes, below)

        (
      -   total: 800,
      +   total: 801,
          totals: [
            … (38 unchanged)
      -     [38]: 800
      +     [38]: 801
          ],
          … (2 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
  }

  func testATraceOfOneStep() async throws {
    let path = try await record(steps: 1)
    XCTAssertEqual(try Replay(trace: path, reducer: Tally()).run(), .matched(steps: 1))
    let result = try Replay(trace: path, reducer: Tally(miscounts: 1)).run()
    XCTAssertEqual(
      result.description,
      """
      Step 1 (add) diverged from the trace (0 steps matched before it):
        the state after it differs from the recorded one (2 changes, below)

        (
      -   total: 1,
      +   total: 2,
          totals: [
      -     [0]: 1
      +     [0]: 2
          ],
          … (2 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
  }

  func testAStateThatCannotBeEncodedWinsOverALaterEffectThatDiffers() async throws {
    let path = try await record(steps: 40)
    XCTAssertThrowsError(
      try Replay(trace: path, reducer: Tally(stamps: 15, forgetsSave: true)).run()
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the state after step 15 could not be encoded: "
          + "a stamp cannot be written")
    }
  }

  /// Over several runs of states: a state that differs in the second run wins over one
  /// that cannot be encoded in the third, which the stage, stopped by the first, never
  /// hashes; a trace that matches matches in every run.
  func testAStateThatDiffersInALaterRunWinsOverAnotherFurtherOn() async throws {
    let path = try await record(steps: 300)
    XCTAssertEqual(try Replay(trace: path, reducer: Tally()).run(), .matched(steps: 300))
    let result = try Replay(trace: path, reducer: Tally(miscounts: 200, stamps: 290)).run()
    XCTAssertEqual(result.divergence?.step, 200)
    XCTAssertEqual(result.divergence?.matchedSteps, 199)
    XCTAssertEqual(result.divergence?.findings, [.state(changes: 2)])
    XCTAssertThrowsError(try Replay(trace: path, reducer: Tally(stamps: 290)).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the state after step 290 could not be encoded: "
          + "a stamp cannot be written")
    }
  }

  /// States that keep coming back (three, in turn, over 600 steps): the stage matches each by
  /// hashing it once, then by equality, and hands it back to the replay thread; a state that
  /// differs (one of the three, after the wrong step) is reported at its step, in the first
  /// run of states or a later one, the states before it in its run having matched.
  func testAStateThatDiffersAmongStatesThatComeBackIsReportedAtItsStep() async throws {
    let path = try await TraceRecording.record(
      Cycle(), initialState: Cycle.State(), in: directory
    ) { store, _ in
      for number in 1...600 { store.send(.next(number)) }
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Cycle()).run(), .matched(steps: 600))
    for step in [1, 300, 437, 600] {
      let result = try Replay(trace: path, reducer: Cycle(skips: step)).run()
      XCTAssertEqual(result.divergence?.step, step)
      XCTAssertEqual(result.divergence?.matchedSteps, step - 1)
      XCTAssertEqual(result.divergence?.findings, [.state(changes: 1)])
    }
  }

  /// The reading thread fails on step 30's row while the states before it may still be
  /// waiting for their check: a state that differs before it is the outcome, the trace's
  /// error only when every state before it matched. (Step 29's batch is still being gathered
  /// when the row fails, so it is read but not replayed, as before the pipeline.)
  func testAnUnreadableRowLosesToAStateThatDiffersBeforeIt() async throws {
    let path = try await record(steps: 40)
    let editor = try TraceEditor(path: path)
    try editor.execute("UPDATE steps SET mono_ns = 'soon' WHERE step = 30")
    editor.close()
    let expected =
      "Cannot replay \(path): \(path): step 30: index row is damaged: mono_ns is 'soon', "
      + "not an integer"
    XCTAssertThrowsError(try Replay(trace: path, reducer: Tally()).run()) { error in
      XCTAssertEqual("\(error)", expected)
    }
    XCTAssertThrowsError(try Replay(trace: path, reducer: Tally(miscounts: 35)).run()) { error in
      XCTAssertEqual("\(error)", expected)
    }
    let result = try Replay(trace: path, reducer: Tally(miscounts: 28)).run()
    XCTAssertEqual(result.divergence?.step, 28)
    XCTAssertEqual(result.divergence?.matchedSteps, 27)
    XCTAssertEqual(result.divergence?.findings, [.state(changes: 2)])
  }

  /// Where `Tally` starts its save effect, as the trace names it.
  private static let saveLocation = "TraceRecorderTests/PipelinedReplayTests.swift:289"

  /// The checking stage's thread is joined before `run()` returns, whatever the outcome: a
  /// match, a state that differs, an effect that differs, a state that cannot be encoded.
  func testNoCheckingThreadOutlivesItsReplay() async throws {
    let path = try await record(steps: 40)
    let variants = [
      Tally(), Tally(miscounts: 3), Tally(forgetsSave: true), Tally(stamps: 30),
    ]
    for round in 0..<20 {
      _ = try? Replay(trace: path, reducer: variants[round % variants.count]).run()
    }
    // Joined; for a moment after a join returns the kernel may still list the thread.
    var left = ProcessThreads.named("rewind-hashing")
    for _ in 0..<200 where left > 0 {
      try await Task.sleep(for: .milliseconds(10))
      left = ProcessThreads.named("rewind-hashing")
    }
    XCTAssertEqual(left, 0)
  }

  /// Records `steps` steps: `add(n)` at step n, but `save` at step 20.
  private func record(steps: Int) async throws -> String {
    try await TraceRecording.record(Tally(), initialState: Tally.State(), in: directory) {
      store, _ in
      for number in 1...steps { store.send(number == 20 ? .save : .add(number)) }
    }
  }
}

/// Adds numbers to a running total and saves; the replayed variants differ at chosen steps.
private struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable {
    var total = 0
    var totals: [Int] = []
    var saves = 0
    var stamp: Stamp?
  }

  /// A value that cannot be encoded: only a changed reducer sets one.
  struct Stamp: Codable, Equatable, Sendable {
    struct Unwritable: Error, CustomStringConvertible {
      var description: String { "a stamp cannot be written" }
    }

    init() {}

    init(from decoder: any Decoder) throws {
      throw Unwritable()
    }

    func encode(to encoder: any Encoder) throws {
      throw Unwritable()
    }
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
    case save
  }

  enum CancelID: Hashable, Sendable { case save }

  /// The number whose `add` adds one more.
  var miscounts: Int?
  /// The number whose `add` sets a stamp.
  var stamps: Int?
  /// `save` starts nothing.
  var forgetsSave = false
  /// `save` counts two saves.
  var savesTwice = false

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let number):
      state.total += number == miscounts ? number + 1 : number
      state.totals.append(state.total)
      if number == stamps { state.stamp = Stamp() }
      return .none
    case .save:
      state.saves += savesTwice ? 2 : 1
      if forgetsSave { return .none }
      return .run { _ in try await clock.sleep(for: .seconds(60)) }
        .cancellable(id: CancelID.save)
    }
  }
}

/// Goes round three states; the replayed variant skips one at a chosen step.
private struct Cycle: Reducer {
  struct State: Codable, Equatable, Sendable {
    var phase = 0
  }

  enum Action: Codable, Equatable, Sendable {
    /// The `n`th step moves one phase on.
    case next(Int)
  }

  /// The number whose `next` moves two phases on.
  var skips: Int?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .next(let number):
      state.phase = (state.phase + (number == skips ? 2 : 1)) % 3
      return .none
    }
  }
}

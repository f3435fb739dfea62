import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// The reducer runs up to a few runs of steps past a state the checking stage has not
/// checked yet. The runtime issues it reports must be the serial replay's: those of every
/// step up to the first that differs (its own included), in order, and none after it; with
/// an unreadable row, those of the steps before it.
@MainActor
final class HeldIssuesReplayTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  /// Step 10 removes every row; the recorded taps after it target rows that are gone, and the
  /// reducer, running ahead of the check, meets them (the first run of 128 states reaches the
  /// stage only after step 128 was reduced). None of those issues is reported.
  func testIssuesOfStepsAfterADivergenceAreNotReported() async throws {
    let path = try await record(steps: 300)
    let (result, issues) = try withIssueCollection {
      try Replay(trace: path, reducer: Ledger(clearsAt: 10)).run()
    }
    XCTAssertEqual(
      result.description,
      """
      Step 10 (note) diverged from the trace (9 steps matched before it):
        the state after it differs from the recorded one (3 changes, below)

        (
          rows: [
      -     [id: 1]: (id: 1, taps: 1),
      -     [id: 2]: (id: 2, taps: 1),
      -     [id: 3]: (id: 3, taps: 1)
          ],
          … (1 unchanged)
        )

      (Recorded: -, Replayed: +)
      """)
    XCTAssertEqual(issues.map(\.description), [])
  }

  /// Issues at matching steps (one in the first run of states, one in the second) and at the
  /// differing step are reported, in order, with their texts and places; one after it is not.
  func testIssuesUpToTheDifferingStepAreReportedInOrder() async throws {
    let path = try await record(steps: 300)
    let (result, issues) = try withIssueCollection {
      try Replay(trace: path, reducer: Ledger(warnsAt: [6, 200, 250, 260], miscountsAt: 250))
        .run()
    }
    XCTAssertEqual(result.divergence?.step, 250)
    XCTAssertEqual(result.divergence?.matchedSteps, 249)
    XCTAssertEqual(result.divergence?.findings, [.state(changes: 1)])
    XCTAssertEqual(
      issues.map(\.description),
      [
        "\(Self.warningPlace): note 6 looks wrong",
        "\(Self.warningPlace): note 200 looks wrong",
        "\(Self.warningPlace): note 250 looks wrong",
      ])
    let (matched, all) = try withIssueCollection {
      try Replay(trace: path, reducer: Ledger(warnsAt: [6, 200, 260])).run()
    }
    XCTAssertEqual(matched, .matched(steps: 300))
    XCTAssertEqual(
      all.map(\.message), ["note 6 looks wrong", "note 200 looks wrong", "note 260 looks wrong"])
  }

  /// Step 30's row is damaged: the serial replay reports the issues of the steps before it,
  /// then the error; a state that differs before it stops the replay there, issues included.
  func testIssuesBeforeAnUnreadableRowAreReportedAndAfterADivergenceNot() async throws {
    let path = try await record(steps: 40)
    let editor = try TraceEditor(path: path)
    try editor.execute("UPDATE steps SET mono_ns = 'soon' WHERE step = 30")
    editor.close()
    let (error, issues) = withIssueCollection { () -> (any Error)? in
      do {
        _ = try Replay(trace: path, reducer: Ledger(warnsAt: [6, 28])).run()
        return nil
      } catch {
        return error
      }
    }
    XCTAssertEqual(
      error.map { "\($0)" },
      "Cannot replay \(path): \(path): step 30: index row is damaged: mono_ns is 'soon', "
        + "not an integer")
    XCTAssertEqual(issues.map(\.message), ["note 6 looks wrong", "note 28 looks wrong"])
    let (result, before) = try withIssueCollection {
      try Replay(trace: path, reducer: Ledger(warnsAt: [6, 20, 24], miscountsAt: 20)).run()
    }
    XCTAssertEqual(result.divergence?.step, 20)
    XCTAssertEqual(before.map(\.message), ["note 6 looks wrong", "note 20 looks wrong"])
  }

  /// The trace is read on a thread named as Linux keeps it (at most 15 bytes). At step 4
  /// it is still reading: it reads 512 steps a block and at most 8 blocks wait, so with more
  /// than 9 blocks in the trace it waits for room while the first is replayed.
  func testTheReadingThreadHasItsName() async throws {
    let path = try await record(steps: 4_700)
    let (result, issues) = try withIssueCollection {
      try Replay(trace: path, reducer: Ledger(countsThreadsAt: 4)).run()
    }
    XCTAssertEqual(result, .matched(steps: 4_700))
    XCTAssertEqual(issues.map(\.message), ["threads named rewind-reading: 1"])
  }

  /// Where `Ledger` reports its issues, as `ReportedIssue.description` starts.
  private static let warningPlace = "TraceRecorderTests/HeldIssuesReplayTests.swift:170"

  /// Records `steps` steps: `add(1)`, `add(2)`, `add(3)`, then a tap of a row at each odd
  /// step and `note(n)` at each even step n.
  private func record(steps: Int) async throws -> String {
    try await TraceRecording.record(Ledger(), initialState: Ledger.State(), in: directory) {
      store, _ in
      for number in 1...steps {
        if number <= 3 {
          store.send(.add(number))
        } else if number.isMultiple(of: 2) {
          store.send(.note(number))
        } else {
          store.send(.rows(.element(id: number % 3 + 1, action: .tap)))
        }
      }
    }
  }
}

/// Rows that count taps, and notes; the replayed variants remove the rows, report an issue,
/// or count a note, at chosen notes.
private struct Ledger: Reducer {
  struct State: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<LedgerRow.State> = []
    var notes = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
    case note(Int)
    case rows(IdentifiedAction<Int, LedgerRow.Action>)
  }

  /// The note that removes every row.
  var clearsAt: Int?
  /// The notes that report an issue.
  var warnsAt: Set<Int> = []
  /// The note that is counted.
  var miscountsAt: Int?
  /// The note that reports how many threads are named `rewind-reading`.
  var countsThreadsAt: Int?

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id):
        state.rows.append(LedgerRow.State(id: id))
      case .note(let number):
        if number == clearsAt { state.rows.removeAll() }
        if number == miscountsAt { state.notes += 1 }
        if number == countsThreadsAt {
          reportIssue(
            "threads named rewind-reading: \(ProcessThreads.named("rewind-reading"))")
        }
        if warnsAt.contains(number) {
          reportIssue("note \(number) looks wrong")
        }
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: AnyCasePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }) {
      LedgerRow()
    }
  }
}

private struct LedgerRow: Reducer {
  struct State: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var taps = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case tap
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 1
    return .none
  }
}

import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Typed replay checks each state by its hash alone (`StableHashEncoder`) and builds the
/// state's tree only to report a divergence: on a feature whose state has what the fixtures do
/// not (nested optionals, enums with payloads, a dictionary, more than 64 rows, a date, a
/// UUID), every step must match, and a changed reducer must be reported exactly as before.
@MainActor
final class ReplayStateHashTests: XCTestCase {
  func testEveryStepOfAStateWithNestedShapesMatches() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("ledger.rewind")
    try await record(to: path)
    XCTAssertEqual(try Replay(trace: path, reducer: Ledger()).run(), .matched(steps: 84))
  }

  func testAChangedRowPastTheFirstRunIsReportedAtItsStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("ledger.rewind")
    try await record(to: path)
    let result = try Replay(trace: path, reducer: Ledger(changesRow: 69)).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(divergence.step, 81)
    XCTAssertEqual(divergence.actionPath, "add")
    XCTAssertEqual(divergence.matchedSteps, 80)
    XCTAssertEqual(
      divergence.changes,
      [.set(try TracePath(parsing: "entries[id: 69].note"), .string("changed"))])
    XCTAssertEqual(
      divergence.description,
      #"""
      Step 81 (add) diverged from the trace (80 steps matched before it):
        the state after it differs from the recorded one (1 change, below)

        (
          entries: [
            … (69 unchanged)
            [id: 69]: (
              … (1 unchanged)
      -       note: "note 77\n",
      +       note: "changed",
              … (1 unchanged)
            )
          ],
          … (4 unchanged)
        )

      (Recorded: -, Replayed: +)
      """#)
  }

  private func record(to path: String) async throws {
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Ledger.State()) { Ledger().recording(to: recorder) }
    store.send(.open)
    store.send(.mark)
    store.send(.mark)
    for index in 0..<81 {
      if index % 10 == 3 {
        store.send(.total(index % 20 == 3 ? "b\"\\" : "a", index))
      } else {
        store.send(.add(index % 4 == 0 ? nil : "note \(index)\n"))
      }
    }
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
  }
}

private struct Ledger: Reducer {
  indirect enum Tag: Codable, Equatable, Sendable {
    case plain
    case split(Int, with: String)
    case nested(Tag?)
  }

  struct Entry: Codable, Equatable, Sendable {
    var id: Int
    var note: String?
    var tag: Tag
  }

  struct State: Codable, Equatable, Sendable {
    var entries: [Entry] = []
    var totals: [String: Int] = [:]
    var pending: Int?? = nil
    var opened: Date? = nil
    var owner = UUID(uuidString: "5F0C1A2B-0000-4000-8000-00000000000A")!
  }

  enum Action: Codable, Equatable, Sendable {
    case add(String?)
    case total(String, Int)
    case mark
    case open
  }

  /// The row whose note the changed reducer rewrites when it is added.
  var changesRow: Int?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let note):
      let id = state.entries.count
      let tag: Tag =
        id % 3 == 0 ? .split(id, with: "a\"b") : .nested(id % 2 == 0 ? nil : .nested(.plain))
      state.entries.append(Entry(id: id, note: note, tag: tag))
      if id == changesRow { state.entries[id].note = "changed" }
    case .total(let key, let value):
      state.totals[key, default: 0] += value
    case .mark:
      state.pending = state.pending == nil ? .some(nil) : .some(3)
    case .open:
      state.opened = Date(timeIntervalSinceReferenceDate: 12.5)
    }
    return .none
  }
}

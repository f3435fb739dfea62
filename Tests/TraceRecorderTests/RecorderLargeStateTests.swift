import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A state whose identified array spans several chunks and hash runs: every recorded hash must
/// be the whole state's `stableHash`, though the writer computes it from cached pieces.
@MainActor
final class RecorderLargeStateTests: XCTestCase {
  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done = false
  }

  struct Rows: Reducer {
    struct State: Codable, Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row>
      var touched = 0
    }

    enum Action: Codable, Equatable, Sendable {
      case toggle(Int)
      case add(Int)
      case remove(Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .toggle(let id): state.rows[id: id]?.done.toggle()
      case .add(let id): state.rows.insert(Row(id: id, title: "added \(id)"), at: 70)
      case .remove(let id): state.rows.remove(id: id)
      }
      state.touched += 1
      return .none
    }
  }

  private func action(_ step: Int) -> Rows.Action {
    switch step % 25 {
    case 24: .remove(step % 200)
    case 12: .add(1_000 + step)
    default: .toggle((step * 37) % 200)
    }
  }

  func testEveryRecordedHashIsTheWholeStatesHashAndTogglesAreOneChange() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("rows.rewind")
    let initial = Rows.State(
      rows: IdentifiedArray(uniqueElements: (0..<200).map { Row(id: $0, title: "row \($0)") }))
    let recorder = try Recorder(path: path, configuration: .init(keyframeInterval: 32))
    let store = Store(initialState: initial) { Rows().recording(to: recorder) }
    var expected = [try TraceValueEncoder().encode(initial)]
    var state = initial
    var toggledPresent: Set<Int> = []  // steps that toggled a row still present
    for step in 1...150 {
      if case .toggle(let id) = action(step), state.rows[id: id] != nil {
        toggledPresent.insert(step)
      }
      store.send(action(step))
      _ = Rows().reduce(into: &state, action: action(step))
      expected.append(try TraceValueEncoder().encode(state))
    }
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 0, to: 150)
    XCTAssertEqual(rows.count, 151)
    // 138 toggles; steps 77 and 127 toggle rows 49 and 99, removed at steps 49 and 99.
    XCTAssertEqual(toggledPresent.count, 136)
    for row in rows {
      XCTAssertEqual(row.stateHash, expected[row.step].stableHash, "step \(row.step)")
      XCTAssertEqual(try reader.state(at: row.step), expected[row.step], "step \(row.step)")
      if case .toggle(let id) = action(row.step), toggledPresent.contains(row.step) {
        XCTAssertEqual(row.changedPaths, ["rows[id: \(id)].done", "touched"], "step \(row.step)")
      }
    }
  }
}

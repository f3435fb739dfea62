import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A ledger whose entries (run by `forEach`, with an effect) and whose own state hold optionals
/// of types that are not scalars (a `Date?`, a struct, a presented memo), absent, present and
/// absent again, and a total kept by `onChange`: the changes and changed paths the Recorder
/// writes when such a value comes and goes (an absent one is the leaf `null`).
private struct Ledger: Reducer {
  struct Memo: Equatable, Codable, Sendable {
    var text: String
    var tags: [String] = []
  }

  struct Entry: Reducer {
    struct State: Equatable, Codable, Sendable, Identifiable {
      var id: Int
      var amount = 0
      var settledAt: Date?
      var memo: Memo?
    }

    enum Action: Equatable, Codable, Sendable {
      case add(Int)
      case added
      case settle(Date?)
      case memo(Memo?)
      case tag(String)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case let .add(amount):
          state.amount += amount
          return .send(.added)
        case .added:
          return .none
        case let .settle(date):
          state.settledAt = date
          return .none
        case let .memo(memo):
          state.memo = memo
          return .none
        case let .tag(tag):
          state.memo?.tags.append(tag)
          return .none
        }
      }
    }
  }

  struct State: Equatable, Codable, Sendable {
    var entries: IdentifiedArrayOf<Entry.State> = [Entry.State(id: 1), Entry.State(id: 2)]
    var stamp: Date?
    var memo: Memo?
    @PresentationState var detail: Memo?
    var total = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case entries(IdentifiedActionOf<Entry>)
    case stamp(Date?)
    case memo(Memo?)
    case present(Memo?)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .entries: break
      case let .stamp(date): state.stamp = date
      case let .memo(memo): state.memo = memo
      case let .present(memo): state.detail = memo
      }
      return .none
    }
    .forEach(
      \.entries,
      action: AnyCasePath(Action.entries) {
        if case let .entries(action) = $0 { action } else { nil }
      }
    ) { Entry() }
    .onChange(of: { $0.entries.reduce(0) { $0 + $1.amount } }) { _, total in
      Reduce { state, _ in
        state.total = total
        return .none
      }
    }
  }
}

@MainActor
final class RecordedAbsentValuesTests: XCTestCase {
  func testOptionalsOfStructsAndDatesComeAndGoAsTheirOwnChanges() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("ledger.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Ledger.State()) { Ledger().recording(to: recorder) }
    let day = Date(timeIntervalSince1970: 86_400)
    store.send(.stamp(day))  // 1
    store.send(.stamp(nil))  // 2
    store.send(.stamp(nil))  // 3: nothing changes
    store.send(.memo(Ledger.Memo(text: "a")))  // 4
    store.send(.memo(Ledger.Memo(text: "b", tags: ["x"])))  // 5
    store.send(.memo(nil))  // 6
    store.send(.entries(.element(id: 2, action: .settle(day))))  // 7
    store.send(.entries(.element(id: 2, action: .memo(Ledger.Memo(text: "c")))))  // 8
    store.send(.entries(.element(id: 2, action: .tag("y"))))  // 9
    store.send(.entries(.element(id: 2, action: .settle(nil))))  // 10
    store.send(.entries(.element(id: 1, action: .add(5))))  // 11, and its effect's action
    store.send(.entries(.element(id: 2, action: .memo(nil))))  // 13
    store.send(.present(Ledger.Memo(text: "d")))  // 14
    store.send(.present(nil))  // 15
    store.send(.stamp(day))  // 16
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(matching: StepFilter())
    var changes: [[String]] = []
    for row in rows.dropFirst() { changes.append(try reader.changes(at: row.step).map(\.description)) }
    XCTAssertEqual(
      changes,
      [
        [#"set stamp "1970-01-02T00:00:00Z""#],
        ["set stamp nil"],
        [],
        [#"set memo (text: "a", tags: [])"#],
        [#"set memo.text "b""#, #"insert memo.tags[0] "x""#],
        ["set memo nil"],
        [#"set entries[id: 2].settledAt "1970-01-02T00:00:00Z""#],
        [#"set entries[id: 2].memo (text: "c", tags: [])"#],
        [#"insert entries[id: 2].memo.tags[0] "y""#],
        ["set entries[id: 2].settledAt nil"],
        ["set entries[id: 1].amount 5", "set total 5"],
        [],
        ["set entries[id: 2].memo nil"],
        [#"set detail (text: "d", tags: [])"#],
        ["set detail nil"],
        [#"set stamp "1970-01-02T00:00:00Z""#],
      ])
    XCTAssertEqual(
      rows.dropFirst().map(\.changedPaths),
      [
        ["stamp"], ["stamp"], [], ["memo"], ["memo.text", "memo.tags[0]"], ["memo"],
        ["entries[id: 2].settledAt"], ["entries[id: 2].memo"], ["entries[id: 2].memo.tags[0]"],
        ["entries[id: 2].settledAt"], ["entries[id: 1].amount", "total"], [],
        ["entries[id: 2].memo"], ["detail"], ["detail"], ["stamp"],
      ])
    // The same changes as diffing the whole states, which the trace rebuilds step by step.
    for row in rows.dropFirst() {
      let before = try reader.state(at: row.step - 1)
      let after = try reader.state(at: row.step)
      let whole = TraceDiff.changesAndPaths(from: before, to: after)
      XCTAssertEqual(try reader.changes(at: row.step), whole.changes, "step \(row.step)")
      XCTAssertEqual(row.changedPaths, whole.paths.map(\.description), "step \(row.step)")
    }
    XCTAssertEqual(
      try reader.state(at: rows.last!.step),
      try TraceValueEncoder().encodeReplacingClassInstances(store.state).value)
  }
}

import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A board whose cards (run by `forEach`) send an effect's action when bumped, whose total is
/// kept by `onChange`, and whose presented panel presents a lock of its own: the changed paths
/// the trace lists for each step, each once, also when redaction folds several of them into
/// the redacted path (the trace stage makes those texts from the paths the first stage found).
private struct Board: Reducer {
  struct Lock: Equatable, Codable, Sendable {
    var pin = 0
    var hint = ""
  }

  struct Panel: Equatable, Codable, Sendable {
    var title: String
    @PresentationState var lock: Lock?
  }

  struct Card: Reducer {
    struct State: Equatable, Codable, Sendable, Identifiable {
      var id: Int
      var points = 0
      var bumped = false
    }

    enum Action: Equatable, Codable, Sendable {
      case bump(Int)
      case bumped
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case let .bump(points):
          state.points += points
          // A `.send` is not an effect of its own in the trace: the `.run` is.
          return .merge(.send(.bumped), .run { _ in }.cancellable(id: "bump"))
        case .bumped:
          state.bumped = true
          return .none
        }
      }
    }
  }

  struct State: Equatable, Codable, Sendable {
    var cards: IdentifiedArrayOf<Card.State> = [Card.State(id: 1), Card.State(id: 2)]
    @PresentationState var panel: Panel?
    var total = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case cards(IdentifiedActionOf<Card>)
    case open(String)
    case lock(pin: Int, hint: String)
    case retitle(String)
    case unlock
    case close
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cards: break
      case let .open(title): state.panel = Panel(title: title)
      case let .lock(pin, hint):
        if state.panel?.lock == nil { state.panel?.lock = Lock() }
        state.panel?.lock?.pin = pin
        state.panel?.lock?.hint = hint
      case let .retitle(title): state.panel?.title = title
      case .unlock: state.panel?.lock = nil
      case .close: state.panel = nil
      }
      return .none
    }
    .forEach(
      \.cards,
      action: AnyCasePath(Action.cards) {
        if case let .cards(action) = $0 { action } else { nil }
      }
    ) { Card() }
    .onChange(of: { $0.cards.reduce(0) { $0 + $1.points } }) { _, total in
      Reduce { state, _ in
        state.total = total
        return .none
      }
    }
  }
}

@MainActor
final class RecordedChangedPathsTests: XCTestCase {
  /// Sends the board's script; returns the trace's changed paths and change lines of steps 1…
  /// (its effects are checked here: the same in every configuration).
  private func record(configuration: Recorder.Configuration) async throws
    -> (paths: [[String]], changes: [[String]], reader: TraceReader)
  {
    let directory = try TemporaryDirectory()
    let path = directory.path("board.rewind")
    let recorder = try Recorder(path: path, configuration: configuration)
    let store = Store(initialState: Board.State()) { Board().recording(to: recorder) }
    store.send(.open("plan"))  // 1
    store.send(.lock(pin: 1234, hint: "year"))  // 2
    store.send(.lock(pin: 4321, hint: "reversed"))  // 3: two fields of the lock
    store.send(.retitle("plan b"))  // 4
    store.send(.cards(.element(id: 2, action: .bump(3))))  // 5, and its effect's action: 6
    store.send(.lock(pin: 4321, hint: "reversed"))  // 7: nothing changes
    store.send(.unlock)  // 8
    store.send(.cards(.element(id: 1, action: .bump(4))))  // 9, and 10
    store.send(.close)  // 11
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    let reader = try TraceReader(path: path)
    let rows = try reader.rows(matching: StepFilter())
    XCTAssertEqual(rows.map(\.step), Array(0...11))
    var changes: [[String]] = []
    for row in rows.dropFirst() {
      changes.append(try reader.changes(at: row.step).map(\.description))
    }
    // Each bump's effect, with its cancellation ids as the trace stage describes them.
    XCTAssertEqual(
      try reader.effects().map { effect in
        "by \(effect.startedByStep) [\(effect.cancelID ?? "")] sent \(effect.sentSteps)"
      },
      [
        "by 5 [forEach(cards)#2, bump @ [forEach(cards)#2]] sent []",
        "by 9 [forEach(cards)#1, bump @ [forEach(cards)#1]] sent []",
      ])
    return (rows.dropFirst().map(\.changedPaths), changes, reader)
  }

  func testEachStepListsTheLeafMostPathsItChangedInOrder() async throws {
    let (paths, changes, reader) = try await record(configuration: .init())
    XCTAssertEqual(
      paths,
      [
        ["panel"], ["panel.lock"], ["panel.lock.pin", "panel.lock.hint"], ["panel.title"],
        ["cards[id: 2].points", "total"], ["cards[id: 2].bumped"], [], ["panel.lock"],
        ["cards[id: 1].points", "total"], ["cards[id: 1].bumped"], ["panel"],
      ])
    XCTAssertEqual(
      changes,
      [
        [#"set panel (title: "plan", lock: nil)"#],
        [#"set panel.lock (pin: 1234, hint: "year")"#],
        ["set panel.lock.pin 4321", #"set panel.lock.hint "reversed""#],
        [#"set panel.title "plan b""#],
        ["set cards[id: 2].points 3", "set total 3"],
        ["set cards[id: 2].bumped true"],
        [],
        ["set panel.lock nil"],
        ["set cards[id: 1].points 4", "set total 7"],
        ["set cards[id: 1].bumped true"],
        ["set panel nil"],
      ])
    // The texts are those of the paths diffing the whole states finds.
    for step in 1...11 {
      let whole = TraceDiff.changesAndPaths(
        from: try reader.state(at: step - 1), to: try reader.state(at: step))
      XCTAssertEqual(paths[step - 1], whole.paths.map(\.description), "step \(step)")
    }
  }

  func testPathsUnderARedactedPathAreListedOnceAsThatPath() async throws {
    let (paths, _, reader) = try await record(
      configuration: .init(redactedStatePaths: ["panel.lock"]))
    XCTAssertEqual(
      paths,
      [
        ["panel"], ["panel.lock"], ["panel.lock"], ["panel.title"],
        ["cards[id: 2].points", "total"], ["cards[id: 2].bumped"], [], ["panel.lock"],
        ["cards[id: 1].points", "total"], ["cards[id: 1].bumped"], ["panel"],
      ])
    XCTAssertFalse(try reader.state(at: 3).jsonString.contains("4321"))
  }
}

import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A board presented as a sheet, holding an identified array of cards, and a stack of lanes
/// that each hold their own cards: the changes the Recorder writes when cards move inside the
/// presented child and inside a stack element, when the child goes away and comes back, and
/// when its optional note goes `nil` and back.
private struct Planner: Reducer {
  struct Card: Equatable, Codable, Sendable, Identifiable {
    var id: Int
    var title: String
  }

  struct Board: Equatable, Codable, Sendable {
    var cards: IdentifiedArrayOf<Card>
    var note: String?
  }

  struct Lane: Equatable, Codable, Sendable {
    var cards: IdentifiedArrayOf<Card>
  }

  struct State: Equatable, Codable, Sendable {
    @PresentationState var board: Board?
    var lanes = StackState<Lane>()
    var moves = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case present
    case moveOnBoard(from: Int, to: Int)
    case moveInLane(from: Int, to: Int)
    case note(String?)
    case dismiss
    case addLane
  }

  static func cards(_ ids: ClosedRange<Int>) -> IdentifiedArrayOf<Card> {
    IdentifiedArray(uniqueElements: ids.map { Card(id: $0, title: "card \($0)") })
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .present:
        state.board = Board(cards: Self.cards(1...4), note: "first")
      case let .moveOnBoard(from, to):
        state.board?.cards.move(fromOffsets: [from], toOffset: to)
        state.moves += 1
      case let .moveInLane(from, to):
        if let id = state.lanes.ids.last {
          state.lanes[id: id]?.cards.move(fromOffsets: [from], toOffset: to)
        }
      case let .note(note):
        state.board?.note = note
      case .dismiss:
        state.board = nil
      case .addLane:
        state.lanes.append(Lane(cards: Self.cards(7...9)))
      }
      return .none
    }
  }
}

@MainActor
final class RecordedMovesTests: XCTestCase {
  func testMovesInAPresentedChildAndAStackElementAreWrittenAsRemoveAndInsert() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("planner.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Planner.State()) {
      Planner().recording(to: recorder)
    } withDependencies: {
      // The lanes' ids from 0, whatever other tests in this process made.
      $0.stackElementID = StackElementIDGenerator()
    }
    store.send(.present)  // 1
    store.send(.moveOnBoard(from: 0, to: 3))  // 2: card 1 after card 3
    store.send(.moveOnBoard(from: 3, to: 0))  // 3: card 4 first
    store.send(.note(nil))  // 4
    store.send(.note("back"))  // 5
    store.send(.moveOnBoard(from: 1, to: 4))  // 6: card 2 last
    store.send(.dismiss)  // 7
    store.send(.present)  // 8
    // 9: card 3 before card 2. Cards 1, 3 and 4 keep their order, as 1, 2 and 4 do: the
    // diff keeps the first such run it finds, so card 2 is the one that moves.
    store.send(.moveOnBoard(from: 2, to: 1))
    store.send(.addLane)  // 10
    store.send(.moveInLane(from: 2, to: 0))  // 11: card 9 first
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    var changes: [[String]] = []
    for step in 1...11 { changes.append(try reader.changes(at: step).map(\.description)) }
    func card(_ id: Int) -> String { #"(id: \#(id), title: "card \#(id)")"# }
    let fresh =
      "set board (cards: [\(card(1)), \(card(2)), \(card(3)), \(card(4))], note: \"first\")"
    XCTAssertEqual(changes[0], [fresh])
    XCTAssertEqual(
      changes[1],
      ["remove board.cards[id: 1]", "insert board.cards[2] \(card(1))", "set moves 1"])
    XCTAssertEqual(
      changes[2],
      ["remove board.cards[id: 4]", "insert board.cards[0] \(card(4))", "set moves 2"])
    XCTAssertEqual(changes[3], ["set board.note nil"])
    XCTAssertEqual(changes[4], [#"set board.note "back""#])
    XCTAssertEqual(
      changes[5],
      ["remove board.cards[id: 2]", "insert board.cards[3] \(card(2))", "set moves 3"])
    XCTAssertEqual(changes[6], ["set board nil"])
    XCTAssertEqual(changes[7], [fresh])
    XCTAssertEqual(
      changes[8],
      ["remove board.cards[id: 2]", "insert board.cards[2] \(card(2))", "set moves 4"])
    XCTAssertEqual(
      changes[9],
      ["insert lanes[0] (id: 0, element: (cards: [\(card(7)), \(card(8)), \(card(9))]))"])
    XCTAssertEqual(
      changes[10],
      [
        "remove lanes[id: 0].element.cards[id: 9]",
        "insert lanes[id: 0].element.cards[0] \(card(9))",
      ])

    // Every step's state, rebuilt from the keyframe and the changes, is the state sent.
    let last = try reader.state(at: 11)
    XCTAssertEqual(
      last, try TraceValueEncoder().encodeReplacingClassInstances(store.state).value)
  }
}

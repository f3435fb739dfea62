import ComposableCore
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// An identified array whose elements moved keeps the trees of the elements that only moved
/// (they are not encoded again) and gives exactly the changes the whole diff gives, also for
/// arrays nested two levels down (a list inside each element of a list inside a struct).
final class MovedElementsTests: XCTestCase {
  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: String
    var done = false
  }

  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: UUID
    var title: String
    var items: IdentifiedArrayOf<Item> = []
    var counted = Counted()
  }

  struct Board: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
    var name = "board"
  }

  struct Detail: Codable, Equatable, Sendable {
    var note = "detail"
    var rows: IdentifiedArrayOf<Row> = []
  }

  struct State: Codable, Equatable, Sendable {
    var board = Board()
    @PresentationState var detail: Detail?
    var count = 0
  }

  private static func id(_ number: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!
  }

  private static func row(_ number: Int) -> Row {
    Row(
      id: id(number), title: "row \(number)",
      items: IdentifiedArray(uniqueElements: (0..<3).map { Item(id: "i\(number).\($0)") }))
  }

  func testAMoveEncodesNoElementAgainAndIsTheWholeDiffsRemoveAndInsert() throws {
    var state = State()
    state.board.rows = IdentifiedArray(uniqueElements: (1...8).map(Self.row))
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    let before = Counted.encodings.load(ordering: .relaxed)
    state.board.rows.move(fromOffsets: [0], toOffset: 2)
    let result = try encoder.encode(state)
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed) - before, 0)
    let first = Self.id(1).uuidString
    XCTAssertEqual(
      result.changes.map(\.description),
      [
        #"remove board.rows[id: "\#(first)"]"#,
        #"insert board.rows[1] (id: "\#(first)", title: "row 1", "#
          + #"items: [(id: "i1.0", done: false), (id: "i1.1", done: false), "#
          + #"(id: "i1.2", done: false)], counted: (value: 0))"#,
      ])
    XCTAssertEqual(
      result.paths.map(\.description),
      [#"board.rows[id: "\#(first)"]"#, #"board.rows[id: "\#(first)"]"#])
    assertEncodesAsWhole(result, try whole(state), step: 1)
  }

  func testElementsThatMovedAndChangedInOneStepAreEncodedAgainAndDiffedWhole() throws {
    var state = State()
    state.board.rows = IdentifiedArray(uniqueElements: (1...8).map(Self.row))
    var encoder = IncrementalEncoder()
    var previous = try whole(state)
    _ = try encoder.encode(state)
    let before = Counted.encodings.load(ordering: .relaxed)
    // Row 1 goes to offset 3, which shifts rows 2 and 3 down by one; row 3 (one place from
    // where it was) and row 6 (where it was) change too.
    state.board.rows.move(fromOffsets: [0], toOffset: 3)
    state.board.rows[id: Self.id(3)]?.title = "three"
    state.board.rows[id: Self.id(6)]?.counted.value = 6
    let result = try encoder.encode(state)
    // Only the two changed rows were encoded again.
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed) - before, 2)
    var current = try whole(state)
    assertEncodesAsWhole(result, current, step: 1)
    var expected = TraceDiff.changesAndPaths(from: previous, to: current, hashingAbove: -1)
    XCTAssertEqual(result.changes, expected.changes)
    XCTAssertEqual(result.paths, expected.paths)
    // Row 1's removal, row 3's change, row 1's insertion at its new place, row 6's change.
    let id = { (number: Int) in Self.id(number).uuidString }
    XCTAssertEqual(
      result.paths.map(\.description),
      [
        #"board.rows[id: "\#(id(1))"]"#, #"board.rows[id: "\#(id(3))"].title"#,
        #"board.rows[id: "\#(id(1))"]"#, #"board.rows[id: "\#(id(6))"].counted.value"#,
      ])

    // The same again on a list of more than one chunk (70 rows): its elements are copied out
    // to be compared.
    previous = current
    state.board.rows = IdentifiedArray(uniqueElements: (1...70).map(Self.row))
    _ = try encoder.encode(state)
    previous = try whole(state)
    let again = Counted.encodings.load(ordering: .relaxed)
    state.board.rows.move(fromOffsets: [0], toOffset: 3)
    state.board.rows[id: Self.id(3)]?.title = "three"
    state.board.rows[id: Self.id(66)]?.counted.value = 6
    let long = try encoder.encode(state)
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed) - again, 2)
    current = try whole(state)
    assertEncodesAsWhole(long, current, step: 2)
    expected = TraceDiff.changesAndPaths(from: previous, to: current, hashingAbove: -1)
    XCTAssertEqual(long.changes, expected.changes)
    XCTAssertEqual(
      long.paths.map(\.description),
      [
        #"board.rows[id: "\#(id(1))"]"#, #"board.rows[id: "\#(id(3))"].title"#,
        #"board.rows[id: "\#(id(1))"]"#, #"board.rows[id: "\#(id(66))"].counted.value"#,
      ])
  }

  /// Elements that only moved keep what they kept where they were: a row walked before the
  /// move is walked again over its kept fields after it (its unchanged `counted` not encoded),
  /// and the keyframe JSON and hash stay the whole encoding's, on a list of one chunk and on
  /// one of several.
  func testAMovedElementKeepsItsWalkedFieldsAndItsJSON() throws {
    for count in [8, 70] {
      var state = State()
      state.board.rows = IdentifiedArray(uniqueElements: (1...count).map(Self.row))
      var encoder = IncrementalEncoder()
      _ = try encoder.encode(state)
      var previous = try whole(state)
      var step = 0
      func encode(expectingEncodings expected: Int, _ label: String) throws {
        step += 1
        let before = Counted.encodings.load(ordering: .relaxed)
        let result = try encoder.encode(state)
        XCTAssertEqual(
          Counted.encodings.load(ordering: .relaxed) - before, expected, "\(count): \(label)")
        let current = try whole(state)
        assertIsTheWholeStep(result, from: previous, to: current, step: step, "\(count): \(label)")
        previous = current
      }
      // Row 2's first change encodes it whole, its second walks it over its tree's fields
      // (`counted` encoded again to be compared), its third over the fields its walk kept.
      for (title, encodings) in [("a", 1), ("b", 1), ("c", 0)] {
        state.board.rows[id: Self.id(2)]?.title = title
        try encode(expectingEncodings: encodings, "change \(title)")
      }
      // Row 1 (not changed since the list was encoded) and row 2 (walked) move.
      state.board.rows.move(fromOffsets: [0, 1], toOffset: 5)
      try encode(expectingEncodings: 0, "move")
      state.board.rows[id: Self.id(2)]?.title = "d"
      try encode(expectingEncodings: 0, "change after the move")
      state.board.rows[id: Self.id(1)]?.title = "e"
      try encode(expectingEncodings: 1, "first change of the other moved row")
    }
  }

  func testEveryStepOfARandomWalkIsExactlyTheWholeDiff() throws {
    var state = State()
    state.board.rows = IdentifiedArray(uniqueElements: (1...6).map(Self.row))
    var encoder = IncrementalEncoder()
    var previous = try whole(state)
    _ = try encoder.encode(state)
    var random = SplitMix(seed: 77)
    var next = 100
    for step in 1...1_200 {
      mutate(&state, &random, &next)
      let result = try encoder.encode(state)
      let current = try whole(state)
      assertIsTheWholeStep(result, from: previous, to: current, step: step, "step \(step)")
      previous = current
    }
  }

  /// `result` encodes `current` as the whole encoding does, and its changes and paths are the
  /// whole diff's from `previous`.
  private func assertIsTheWholeStep(
    _ result: IncrementalEncoder.Result, from previous: TraceValue, to current: TraceValue,
    step: Int, _ label: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    assertEncodesAsWhole(result, current, step: step, file: file, line: line)
    let expected = TraceDiff.changesAndPaths(from: previous, to: current, hashingAbove: -1)
    XCTAssertEqual(result.changes, expected.changes, label, file: file, line: line)
    XCTAssertEqual(result.paths, expected.paths, label, file: file, line: line)
  }

  private func whole(_ state: State) throws -> TraceValue {
    try TraceValueEncoder().encodeReplacingClassInstances(state).value
  }

  private func mutate(_ state: inout State, _ random: inout SplitMix, _ next: inout Int) {
    let pick = random.next() % 10
    let number = Int(random.next() % 1_000)
    // Half the steps work on the board, half on the presented detail's list.
    let onBoard = random.next() % 2 == 0 || state.detail == nil
    var rows = onBoard ? state.board.rows : state.detail!.rows
    switch pick {
    case 0 where rows.count > 1:
      rows.move(fromOffsets: [number % rows.count], toOffset: (number / 7) % (rows.count + 1))
    case 1 where rows.count < 12:
      next += 1
      _ = rows.insert(Self.row(next), at: number % (rows.count + 1))
    case 2 where rows.count > 0:
      _ = rows.remove(at: number % rows.count)
    case 3 where rows.count > 0:
      // A move two levels down: inside one row's items.
      let index = number % rows.count
      var row = rows[index]
      if !row.items.isEmpty {
        row.items.move(
          fromOffsets: [number % row.items.count], toOffset: (number / 3) % (row.items.count + 1))
      }
      rows[id: row.id] = row
    case 4 where rows.count > 0:
      let index = number % rows.count
      var row = rows[index]
      if number % 2 == 0 {
        next += 1
        _ = row.items.insert(Item(id: "n\(next)"), at: number % (row.items.count + 1))
      } else if !row.items.isEmpty {
        _ = row.items.remove(at: number % row.items.count)
      }
      rows[id: row.id] = row
    case 5 where rows.count > 0:
      rows[id: rows[number % rows.count].id]?.title = "t\(number % 4)"
    case 6:
      // The presented child appears and vanishes.
      state.detail = state.detail == nil ? Detail(rows: state.board.rows) : nil
      return
    case 7:
      state.count = number % 3
      return
    default:
      if rows.count > 0 { rows[id: rows[number % rows.count].id]?.counted.value = number % 2 }
    }
    if onBoard {
      state.board.rows = rows
    } else {
      state.detail!.rows = rows
    }
  }
}

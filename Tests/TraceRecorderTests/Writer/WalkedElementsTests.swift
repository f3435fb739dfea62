import ComposableCore
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// An element of an identified array that is a struct with an `id` is encoded whole at its
/// first change, walked field by field over its tree's fields at its second, and then over the
/// fields its previous walk kept (`FieldWalker.walkElement`): an unchanged field keeps its
/// encoding, so a nested value's `encode(to:)` runs only when that value changed, and the
/// element's tree, hash, JSON and changes are what encoding the whole state writes. An element
/// whose `encode(to:)` a walker cannot read, or whose `id` encodes differently from one step
/// to the next, is encoded whole as before.
final class WalkedElementsTests: XCTestCase {
  struct Child: Codable, Equatable, Sendable {
    var value = 0
    var label: String?
  }

  struct Detail: Codable, Equatable, Sendable {
    var count = 0
    var counted = Counted()
  }

  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var name: String
    var token = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    var detail = Detail()
    var child: Child?
  }

  struct State: Codable, Equatable, Sendable {
    var items: IdentifiedArrayOf<Item>
    var count = 0
  }

  /// Encodes `state` after each change; returns each step's changes, and how many times
  /// `Counted.encode(to:)` ran in it, after checking the step against the whole encoding.
  private final class Steps {
    var state: State
    var encoder = IncrementalEncoder()
    var previous: TraceValue
    var changes: [[String]] = []
    var encodings: [Int] = []

    init(_ state: State) throws {
      self.state = state
      previous = try encoder.encode(state).value
    }

    func step(
      _ change: (inout State) -> Void, file: StaticString = #filePath, line: UInt = #line
    ) throws {
      change(&state)
      Counted.encodings.store(0, ordering: .relaxed)
      let result = try encoder.encode(state)
      encodings.append(Counted.encodings.load(ordering: .relaxed))
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      assertEncodesAsWhole(result, whole, step: changes.count, file: file, line: line)
      let diff = TraceDiff.changesAndPaths(from: previous, to: whole)
      XCTAssertEqual(
        result.changes, diff.changes, "step \(changes.count): the whole diff's changes",
        file: file, line: line)
      XCTAssertEqual(
        result.paths, diff.paths, "step \(changes.count): the whole diff's paths", file: file,
        line: line)
      var patched = previous
      try TraceDiff.apply(result.changes, to: &patched)
      XCTAssertEqual(patched, whole, "step \(changes.count)", file: file, line: line)
      changes.append(result.changes.map(\.description))
      previous = whole
    }
  }

  func testAChangedElementIsWalkedAndItsUnchangedFieldsKeepTheirEncodings() throws {
    let steps = try Steps(
      State(items: IdentifiedArray(uniqueElements: (1...4).map { Item(id: $0, name: "i\($0)") })))
    try steps.step { $0.items[id: 2]?.detail.count = 5 }
    try steps.step { $0.items[id: 2]?.detail.count = 6 }
    try steps.step { $0.items[id: 2]?.child = Child(value: 1) }
    try steps.step { $0.items[id: 2]?.child?.label = "deep" }
    try steps.step { $0.items[id: 2]?.child?.value = 2 }
    try steps.step { $0.items[id: 2]?.detail.counted.value = 7 }
    try steps.step {
      $0.items[id: 2]?.child = nil
      $0.items[id: 3]?.name = "three"
      $0.count = 1
    }
    try steps.step { $0.items[id: 3]?.detail.count = 1 }
    XCTAssertEqual(
      steps.changes,
      [
        ["set items[id: 2].detail.count 5"],
        ["set items[id: 2].detail.count 6"],
        [#"set items[id: 2].child (value: 1, label: nil)"#],
        [#"set items[id: 2].child.label "deep""#],
        ["set items[id: 2].child.value 2"],
        ["set items[id: 2].detail.counted.value 7"],
        ["set items[id: 2].child nil", #"set items[id: 3].name "three""#, "set count 1"],
        ["set items[id: 3].detail.count 1"],
      ])
    // An element's first change encodes it whole, and its first walk has only its tree to
    // compare with, so `detail` is encoded again (its `Counted` with it); after that, `Counted`
    // is encoded only when it changed.
    XCTAssertEqual(steps.encodings, [1, 1, 0, 0, 0, 1, 1, 1])
  }

  func testAFieldThatChangesBackIsSetBackAndAnEmptyStepChangesNothing() throws {
    let steps = try Steps(
      State(items: IdentifiedArray(uniqueElements: (1...3).map { Item(id: $0, name: "i\($0)") })))
    try steps.step { $0.items[id: 1]?.name = "x" }
    try steps.step { $0.items[id: 1]?.name = "i1" }
    try steps.step { $0.items[id: 1]?.child = Child(value: 3, label: "c") }
    try steps.step { $0.items[id: 1]?.child = nil }
    try steps.step { $0.items[id: 1]?.name = "i1" }
    try steps.step { $0.items[id: 1]?.detail.counted.value = 4 }
    try steps.step { $0.items[id: 1]?.detail.counted.value = 0 }
    XCTAssertEqual(
      steps.changes,
      [
        [#"set items[id: 1].name "x""#],
        [#"set items[id: 1].name "i1""#],
        [#"set items[id: 1].child (value: 3, label: "c")"#],
        ["set items[id: 1].child nil"],
        [],
        ["set items[id: 1].detail.counted.value 4"],
        ["set items[id: 1].detail.counted.value 0"],
      ])
    XCTAssertEqual(steps.encodings, [1, 1, 0, 0, 0, 1, 1])
  }

  /// A move is diffed whole; an element moved keeps the fields its walk kept (their paths are
  /// by id), so its next change is walked over them.
  func testAnElementMovedAndChangedInOneStepThenChangedAgain() throws {
    let steps = try Steps(
      State(items: IdentifiedArray(uniqueElements: (1...4).map { Item(id: $0, name: "i\($0)") })))
    try steps.step { $0.items[id: 3]?.detail.count = 1 }
    try steps.step {
      $0.items.move(fromOffsets: [2], toOffset: 0)
      $0.items[id: 3]?.name = "moved"
    }
    try steps.step { $0.items[id: 3]?.detail.count = 2 }
    try steps.step { $0.items.move(fromOffsets: [0], toOffset: 4) }
    try steps.step { $0.items[id: 3]?.detail.count = 3 }
    try steps.step { $0.items[id: 1]?.detail.count = 4 }
    XCTAssertEqual(
      steps.changes,
      [
        ["set items[id: 3].detail.count 1"],
        [
          "remove items[id: 3]",
          #"insert items[0] (id: 3, name: "moved", token: "00000000-0000-0000-0000-00000000000A", detail: (count: 1, counted: (value: 0)), child: nil)"#,
        ],
        ["set items[id: 3].detail.count 2"],
        [
          "remove items[id: 3]",
          #"insert items[3] (id: 3, name: "moved", token: "00000000-0000-0000-0000-00000000000A", detail: (count: 2, counted: (value: 0)), child: nil)"#,
        ],
        ["set items[id: 3].detail.count 3"],
        ["set items[id: 1].detail.count 4"],
      ])
    // Changed in the move's step, element 3 is encoded whole (its `Counted` too) and keeps no
    // fields, so its next walk has only its tree; the fields of that walk stay with it through
    // the next move. Element 1's first change encodes it whole.
    XCTAssertEqual(steps.encodings, [1, 1, 1, 0, 0, 1])
  }

  /// 70 elements: two runs of the stable hash, each changed in the same step.
  func testElementsChangedInTwoRunsHashAsTheWholeArray() throws {
    let steps = try Steps(
      State(
        items: IdentifiedArray(uniqueElements: (1...70).map { Item(id: $0, name: "i\($0)") })))
    try steps.step {
      $0.items[id: 5]?.detail.count = 1
      $0.items[id: 69]?.child = Child(value: 2)
    }
    try steps.step {
      $0.items[id: 5]?.detail.count = 2
      $0.items[id: 69]?.child?.value = 3
    }
    try steps.step {
      $0.items[id: 5]?.detail.count = 3
      $0.items[id: 69]?.child?.label = "l"
    }
    XCTAssertEqual(
      steps.changes,
      [
        ["set items[id: 5].detail.count 1", "set items[id: 69].child (value: 2, label: nil)"],
        ["set items[id: 5].detail.count 2", "set items[id: 69].child.value 3"],
        ["set items[id: 5].detail.count 3", #"set items[id: 69].child.label "l""#],
      ])
    XCTAssertEqual(steps.encodings, [2, 2, 0])
  }

  /// A row whose hand-written `encode(to:)` writes its keys in its own order and a value of
  /// its own: walked through that `encode(to:)`, so what it writes is what is kept.
  struct Renamed: Encodable, Equatable, Sendable, Identifiable {
    var id: Int
    var first: String
    var last: String

    enum CodingKeys: String, CodingKey { case id, full, last }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(last, forKey: .last)
      try container.encode(first + " " + last, forKey: .full)
      try container.encode(id, forKey: .id)
    }
  }

  /// A row whose hand-written `encode(to:)` nests a container: a walker cannot read it, so it
  /// is encoded whole.
  struct Boxed: Encodable, Equatable, Sendable, Identifiable {
    var id: Int
    var value: Int

    enum CodingKeys: String, CodingKey { case id, inner }
    enum InnerKeys: String, CodingKey { case value }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
      try inner.encode(value, forKey: .value)
    }
  }

  /// A row whose `id` encodes with a version that changes: encoded whole, its changes under
  /// the path of its new `id` (as before walked elements: not the whole diff's remove and
  /// insert, which `Equatable` ids cannot tell).
  struct Versioned: Encodable, Equatable, Sendable, Identifiable {
    var id: Int
    var version = 0
    var text = "v"

    enum CodingKeys: String, CodingKey { case id, text }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode("\(id).\(version)", forKey: .id)
      try container.encode(text, forKey: .text)
    }
  }

  struct HandWritten: Encodable, Equatable, Sendable {
    var renamed: IdentifiedArrayOf<Renamed> = [
      Renamed(id: 1, first: "Ada", last: "Lovelace"), Renamed(id: 2, first: "Alan", last: "Turing"),
    ]
    var boxed: IdentifiedArrayOf<Boxed> = [Boxed(id: 1, value: 1), Boxed(id: 2, value: 2)]
    var versioned: IdentifiedArrayOf<Versioned> = [Versioned(id: 1), Versioned(id: 2)]
  }

  func testRowsWithHandWrittenEncodersAreWalkedOnlyThroughWhatTheyWrite() throws {
    var state = HandWritten()
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    var changes: [[String]] = []
    func step(_ change: (inout HandWritten) -> Void) throws {
      change(&state)
      let result = try encoder.encode(state)
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      assertEncodesAsWhole(result, whole, step: changes.count)
      if changes.count < 5 {
        let diff = TraceDiff.changesAndPaths(from: previous, to: whole)
        XCTAssertEqual(result.changes, diff.changes, "step \(changes.count)")
        XCTAssertEqual(result.paths, diff.paths, "step \(changes.count)")
      }
      if changes.count < 5 {
        var patched = previous
        try TraceDiff.apply(result.changes, to: &patched)
        XCTAssertEqual(patched, whole, "step \(changes.count)")
      }
      changes.append(result.changes.map(\.description))
      previous = whole
    }
    try step { $0.renamed[id: 2]?.first = "A. M." }
    try step { $0.renamed[id: 2]?.last = "T." }
    try step { $0.boxed[id: 1]?.value = 10 }
    try step { $0.boxed[id: 1]?.value = 11 }
    try step { $0.versioned[id: 2]?.text = "w" }
    try step { $0.versioned[id: 2]?.version = 1 }
    try step {
      $0.versioned[id: 2]?.version = 2
      $0.versioned[id: 2]?.text = "x"
    }
    XCTAssertEqual(
      changes,
      [
        [#"set renamed[id: 2].full "A. M. Turing""#],
        [#"set renamed[id: 2].last "T.""#, #"set renamed[id: 2].full "A. M. T.""#],
        ["set boxed[id: 1].inner.value 10"],
        ["set boxed[id: 1].inner.value 11"],
        [#"set versioned[id: "2.0"].text "w""#],
        [#"set versioned[id: "2.1"].id "2.1""#],
        [#"set versioned[id: "2.2"].id "2.2""#, #"set versioned[id: "2.2"].text "x""#],
      ])
    let types = WalkedTypes()
    XCTAssertEqual(types.kind(of: state.renamed[0]), .walked)
    // Learned at its first walk, for every writer.
    XCTAssertEqual(types.kind(of: state.boxed[0]), .whole)
  }
}

/// A list of rows run by `forEach`, each with a nested struct and an optional child, whose
/// actions start an effect that sends the row an action back: the trace's changes, states and
/// hashes are those of the whole state, step by step.
private struct BookShelf: Reducer {
  struct Note: Equatable, Codable, Sendable {
    var text = ""
    var pinned = false
  }

  struct Stats: Equatable, Codable, Sendable {
    var reads = 0
    var last: Note?
  }

  struct Book: Reducer {
    struct State: Equatable, Codable, Sendable, Identifiable {
      var id: UUID
      var title: String
      var stats = Stats()
      var note: Note?
    }

    enum Action: Equatable, Codable, Sendable {
      case read
      case annotate(String)
      case pin
      case unpin
      case retitle(String)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .read:
          state.stats.reads += 1
          return .none
        case let .annotate(text):
          state.note = Note(text: text)
          state.stats.last = state.note
          return .send(.pin)
        case .pin:
          state.note?.pinned = true
          return .run { _ in }.cancellable(id: "pin")
        case .unpin:
          state.note?.pinned = false
          state.stats.last = nil
          return .none
        case let .retitle(title):
          state.title = title
          return .none
        }
      }
    }
  }

  struct State: Equatable, Codable, Sendable {
    var books: IdentifiedArrayOf<Book.State>
    var moves = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case books(IdentifiedActionOf<Book>)
    case moveFirstToEnd
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .books: break
      case .moveFirstToEnd:
        state.books.move(fromOffsets: [0], toOffset: state.books.count)
        state.books[id: BookShelf.id(1)]?.title = "first, last"
        state.moves += 1
      }
      return .none
    }
    .forEach(
      \.books,
      action: AnyCasePath(Action.books) {
        if case let .books(action) = $0 { action } else { nil }
      }
    ) { Book() }
  }

  static func id(_ index: Int) -> UUID {
    UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")!
  }
}

@MainActor
final class RecordedWalkedElementsTests: XCTestCase {
  func testForEachRowsWithEffectsRecordTheWholeStatesChangesAndHashes() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shelf.rewind")
    let recorder = try Recorder(path: path)
    let initial = BookShelf.State(
      books: IdentifiedArray(
        uniqueElements: (1...3).map { BookShelf.Book.State(id: BookShelf.id($0), title: "b\($0)") }))
    let store = Store(initialState: initial) { BookShelf().recording(to: recorder) }
    let two = BookShelf.id(2)
    let one = BookShelf.id(1)
    store.send(.books(.element(id: two, action: .read)))  // 1
    store.send(.books(.element(id: two, action: .read)))  // 2
    store.send(.books(.element(id: two, action: .annotate("good"))))  // 3, and .pin: 4
    store.send(.books(.element(id: two, action: .unpin)))  // 5
    store.send(.books(.element(id: one, action: .read)))  // 6
    store.send(.moveFirstToEnd)  // 7
    store.send(.books(.element(id: one, action: .annotate("last"))))  // 8, and .pin: 9
    store.send(.books(.element(id: one, action: .retitle("b1"))))  // 10
    store.send(.books(.element(id: two, action: .read)))  // 11
    let final = store.state
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    let reader = try TraceReader(path: path)
    let rows = try reader.rows(matching: StepFilter())
    XCTAssertEqual(rows.map(\.step), Array(0...11))
    var changes: [[String]] = []
    for row in rows.dropFirst() {
      changes.append(try reader.changes(at: row.step).map(\.description))
    }
    let b1 = "books[id: \"00000000-0000-0000-0000-000000000001\"]"
    let b2 = "books[id: \"00000000-0000-0000-0000-000000000002\"]"
    XCTAssertEqual(
      changes,
      [
        ["set \(b2).stats.reads 1"],
        ["set \(b2).stats.reads 2"],
        [
          #"set \#(b2).stats.last (text: "good", pinned: false)"#,
          #"set \#(b2).note (text: "good", pinned: false)"#,
        ],
        ["set \(b2).note.pinned true"],
        ["set \(b2).stats.last nil", "set \(b2).note.pinned false"],
        ["set \(b1).stats.reads 1"],
        [
          "remove \(b1)",
          #"insert books[2] (id: "00000000-0000-0000-0000-000000000001", title: "first, last", stats: (reads: 1, last: nil), note: nil)"#,
          "set moves 1",
        ],
        [
          #"set \#(b1).stats.last (text: "last", pinned: false)"#,
          #"set \#(b1).note (text: "last", pinned: false)"#,
        ],
        ["set \(b1).note.pinned true"],
        [#"set \#(b1).title "b1""#],
        ["set \(b2).stats.reads 3"],
      ])
    XCTAssertEqual(
      try reader.effects().map { "by \($0.startedByStep) [\($0.cancelID ?? "")]" },
      [
        "by 4 [forEach(books)#00000000-0000-0000-0000-000000000002, pin @ [forEach(books)#00000000-0000-0000-0000-000000000002]]",
        "by 9 [forEach(books)#00000000-0000-0000-0000-000000000001, pin @ [forEach(books)#00000000-0000-0000-0000-000000000001]]",
      ])
    // Each step's state, rebuilt from the keyframe and the changes, has the recorded hash, and
    // the last one is the store's.
    for row in rows {
      XCTAssertEqual(try reader.state(at: row.step).stableHash, row.stateHash, "step \(row.step)")
    }
    XCTAssertEqual(try reader.state(at: 11), try TraceValueEncoder().encode(final))
  }
}

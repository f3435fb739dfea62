import ComposableCore
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A shelf of 70 books (two runs of the stable hash) inside a struct, run by `forEach` with an
/// effect per read book: the changed books of a nested identified array are staged and set
/// once the previous step is dropped, as at the top level, and the changes, changed paths and
/// state hashes the Recorder writes are those of the whole state.
private struct Library: Reducer {
  struct Book: Reducer {
    struct State: Equatable, Codable, Sendable, Identifiable {
      var id: Int
      var title: String
      var read = false
    }

    enum Action: Equatable, Codable, Sendable {
      case read
      case noted
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .read:
        state.read.toggle()
        return .send(.noted)
      case .noted:
        return .none
      }
    }
  }

  struct Shelf: Equatable, Codable, Sendable {
    var books: IdentifiedArrayOf<Book.State>
    var label: String?
  }

  struct State: Equatable, Codable, Sendable {
    var shelf = Shelf(
      books: IdentifiedArray(
        uniqueElements: (1...70).map { Book.State(id: $0, title: "book \($0)") }))
    var notes = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case books(IdentifiedAction<Int, Book.Action>)
    /// Renames a book in each run.
    case renameTwo
    /// Labels the shelf (a key the shelf did not write) and renames a book in the same step.
    case label(String)
    /// Inserts, removes, moves and renames books in one step.
    case reshelve
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .books(.element(_, .noted)):
        state.notes += 1
      case .books:
        break
      case .renameTwo:
        state.shelf.books[id: 3]?.title = "three"
        state.shelf.books[id: 68]?.title = "sixty-eight"
      case let .label(label):
        state.shelf.label = label
        state.shelf.books[id: 4]?.title = "four"
      case .reshelve:
        state.shelf.books.insert(Book.State(id: 100, title: "new"), at: 0)
        state.shelf.books.remove(id: 5)
        state.shelf.books.move(fromOffsets: [69], toOffset: 1)
        state.shelf.books[id: 2]?.title = "two"
      }
      return .none
    }
    .forEach(
      \.shelf.books,
      action: AnyCasePath(Action.books) {
        if case let .books(action) = $0 { action } else { nil }
      }
    ) {
      Book()
    }
  }
}

/// A tag that encodes as its text when it is plain, else as an object: an identified array
/// whose runs mix scalar and container elements.
private struct Tag: Encodable, Equatable, Sendable, Identifiable {
  var id: Int
  var text: String

  private enum CodingKeys: String, CodingKey { case id, text }

  func encode(to encoder: Encoder) throws {
    if id % 3 == 0 {
      var container = encoder.singleValueContainer()
      try container.encode(text)
    } else {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(text, forKey: .text)
    }
  }
}

private struct Tagged: Encodable, Equatable, Sendable {
  struct Inner: Encodable, Equatable, Sendable {
    var tags: IdentifiedArrayOf<Tag>
    var count = 0
  }

  var inner: Inner
  var small: IdentifiedArrayOf<Tag>
}

@MainActor
final class RecordedNestedElementsTests: XCTestCase {
  func testANestedListsChangesAndHashesAreTheWholeStatesInEveryKindOfStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("library.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Library.State()) { Library().recording(to: recorder) }
    store.send(.books(.element(id: 3, action: .read)))  // 1, and 2 (its effect)
    store.send(.renameTwo)  // 3
    store.send(.books(.element(id: 69, action: .read)))  // 4, and 5
    store.send(.label("fiction"))  // 6
    store.send(.reshelve)  // 7
    store.send(.books(.element(id: 70, action: .read)))  // 8, and 9
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    var changes: [[String]] = []
    var paths: [[String]] = []
    for step in 1...9 {
      changes.append(try reader.changes(at: step).map(\.description))
      paths.append(try reader.row(at: step).changedPaths)
    }
    XCTAssertEqual(changes[0], ["set shelf.books[id: 3].read true"])
    XCTAssertEqual(changes[1], ["set notes 1"])
    XCTAssertEqual(
      changes[2],
      [
        #"set shelf.books[id: 3].title "three""#,
        #"set shelf.books[id: 68].title "sixty-eight""#,
      ])
    XCTAssertEqual(changes[3], ["set shelf.books[id: 69].read true"])
    XCTAssertEqual(changes[4], ["set notes 2"])
    XCTAssertEqual(
      changes[5],
      [#"set shelf.books[id: 4].title "four""#, #"set shelf.label "fiction""#])
    XCTAssertEqual(
      changes[6],
      [
        "remove shelf.books[id: 5]",
        "remove shelf.books[id: 70]",
        #"insert shelf.books[0] (id: 100, title: "new", read: false)"#,
        #"insert shelf.books[1] (id: 70, title: "book 70", read: false)"#,
        #"set shelf.books[id: 2].title "two""#,
      ])
    XCTAssertEqual(changes[7], ["set shelf.books[id: 70].read true"])
    XCTAssertEqual(changes[8], ["set notes 3"])
    XCTAssertEqual(paths[0], ["shelf.books[id: 3].read"])
    XCTAssertEqual(paths[2], ["shelf.books[id: 3].title", "shelf.books[id: 68].title"])
    XCTAssertEqual(paths[5], ["shelf.books[id: 4].title", "shelf.label"])
    XCTAssertEqual(
      paths[6],
      [
        "shelf.books[id: 5]", "shelf.books[id: 70]", "shelf.books[id: 100]",
        "shelf.books[id: 2].title",
      ])

    // Each step's hash, made from cached pieces, is the hash of the state rebuilt from the
    // keyframe and the changes; the last state is the store's.
    for step in 0...9 {
      XCTAssertEqual(
        try reader.row(at: step).stateHash, try reader.state(at: step).stableHash,
        "step \(step)")
    }
    XCTAssertEqual(
      try reader.state(at: 9),
      try TraceValueEncoder().encodeReplacingClassInstances(store.state).value)
  }

}

/// `IncrementalEncoder` on the same shelf and on runs that mix scalar and container elements.
final class StagedElementsTests: XCTestCase {
  func testStagedElementsBelowTheTopLevelLeaveThePreviousStepsEncodingAsItWas() throws {
    var state = Library.State()
    var encoder = IncrementalEncoder()
    let first = try encoder.encode(state)
    let firstWhole = try TraceValueEncoder().encode(state)
    state.shelf.books[id: 3]?.read = true
    state.shelf.books[id: 66]?.title = "sixty-six"
    let second = try encoder.encode(state)
    XCTAssertEqual(
      second.changes.map(\.description),
      ["set shelf.books[id: 3].read true", #"set shelf.books[id: 66].title "sixty-six""#])
    assertEncodesAsWhole(second, try TraceValueEncoder().encode(state), step: 2)
    // The first step's encoding shared the runs the second staged into: they were copied,
    // not changed under it.
    assertEncodesAsWhole(first, firstWhole, step: 1)
    // With the first step dropped, the third sets its element in the runs it holds alone.
    state.shelf.books[id: 3]?.read = false
    let third = try encoder.encode(state)
    XCTAssertEqual(third.changes.map(\.description), ["set shelf.books[id: 3].read false"])
    assertEncodesAsWhole(third, try TraceValueEncoder().encode(state), step: 3)
    assertEncodesAsWhole(second, try TraceValueEncoder().encode(Self.secondState()), step: 2)
  }

  func testRunsOfScalarAndContainerElementsHashAsTheWholeArray() throws {
    var state = Tagged(
      inner: Tagged.Inner(
        tags: IdentifiedArray(uniqueElements: (0..<130).map { Tag(id: $0, text: "t\($0)") })),
      small: IdentifiedArray(uniqueElements: (0..<5).map { Tag(id: $0, text: "s\($0)") }))
    var encoder = IncrementalEncoder()
    assertEncodesAsWhole(try encoder.encode(state), try TraceValueEncoder().encode(state), step: 0)
    state.inner.tags[id: 3]?.text = "three"  // a scalar in run 0
    state.inner.tags[id: 67]?.text = "sixty-seven"  // an object in run 1
    state.inner.tags[id: 129]?.text = "last"  // a scalar in run 2
    state.small[id: 0]?.text = "zero"
    state.small[id: 1]?.text = "one"
    let result = try encoder.encode(state)
    XCTAssertEqual(
      result.changes.map(\.description),
      [
        #"set inner.tags[3] "three""#,
        #"set inner.tags[id: 67].text "sixty-seven""#,
        #"set inner.tags[129] "last""#,
        #"set small[0] "zero""#,
        #"set small[id: 1].text "one""#,
      ])
    assertEncodesAsWhole(result, try TraceValueEncoder().encode(state), step: 1)
  }

  private static func secondState() -> Library.State {
    var state = Library.State()
    state.shelf.books[id: 3]?.read = true
    state.shelf.books[id: 66]?.title = "sixty-six"
    return state
  }
}

import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A shelf of books whose action cases are not named after its state: `books` are reached by
/// the case `book`, the optional `reading` by the case `open`.
struct Shelf: Reducer {
  struct State: Equatable, Codable, Sendable {
    var books: IdentifiedArrayOf<Book.State> = []
    var reading: Book.State?
  }

  enum Action: Equatable, Codable, Sendable {
    case book(IdentifiedActionOf<Book>)
    case open(Book.Action)
    case add(Int)
    case remove(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(id):
        state.books.append(Book.State(id: id))
      case let .remove(id):
        state.books.remove(id: id)
      case .book, .open:
        break
      }
      return .none
    }
    .forEach(\.books, action: \.book) { Book() }
    .ifLet(\.reading, action: \.open) { Book() }
  }
}

extension Shelf.Action: CasePathable {
  struct AllCasePaths {
    var book: AnyCasePath<Shelf.Action, IdentifiedActionOf<Book>> {
      AnyCasePath<Shelf.Action, IdentifiedActionOf<Book>>(
        embed: Shelf.Action.book,
        extract: {
          guard case let .book(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var open: AnyCasePath<Shelf.Action, Book.Action> {
      AnyCasePath<Shelf.Action, Book.Action>(
        embed: Shelf.Action.open,
        extract: {
          guard case let .open(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

struct Book: Reducer {
  struct State: Equatable, Codable, Sendable, Identifiable {
    var id: Int
  }

  enum Action: Equatable, Codable, Sendable {
    case read
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await clock.sleep(for: .seconds(3600)) }
  }
}

@MainActor
final class RecorderCaseKeyPathTests: XCTestCase {
  /// A case key path names the child in cancel ids and in the tree's action prefix; the tree's
  /// state path still comes from the state's key path.
  func testCaseKeyPathsNameTheChildAndTheKeyPathItsState() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shelf.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Shelf.State()) {
      Shelf().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.add(7))  // 1
    store.send(.book(.element(id: 7, action: .read)))  // 2
    await clock.waitForSleepers(1)
    store.send(.remove(7))  // 3
    await clock.waitForSleepers(0)
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try XCTUnwrap(try reader.tree()).lines,
      [
        "Recorder Shelf",
        "  reducer Shelf",
        "    Reduce",
        "    forEach Book state=books action=book",
        "      reducer Book",
        "    ifLet Book state=reading action=open",
        "      reducer Book",
      ])
    XCTAssertEqual(
      try reader.effects().map { "\($0.cancelID ?? "") \($0.outcome)" },
      ["forEach(book)#7 cancelled(reason: \"forEach\", byStep: Optional(3))"])
    XCTAssertEqual(
      try reader.rows(from: 0, to: 10).map(\.actionPath),
      ["", "add", "book.element.read", "remove"])
  }
}

import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A shelf of books as recorded: a nested counter action, a search with a labelled payload,
/// and rows of books added as the user goes.
private enum Bookshelf {
  struct Query: Codable, Equatable, Sendable {
    var text: String
  }

  struct Book: Codable, Equatable, Sendable {
    var title: String
    var pages: Int
  }

  struct State: Codable, Equatable, Sendable {
    var count = 0
    var query = ""
    var books: [Book] = []
  }

  enum CounterAction: Codable, Equatable, Sendable { case increment, decrement }

  enum Action: Codable, Equatable, Sendable {
    case counter(CounterAction)
    case search(query: Query)
    case add(title: String)
  }

  struct Feature: Reducer {
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .counter(.increment): state.count += 1
      case .counter(.decrement): state.count -= 1
      case .search(let query): state.query = query.text
      case .add(let title): state.books.append(Book(title: title, pages: 100))
      }
      return .none
    }
  }
}

/// The shelf after `decrement` was renamed `subtract`.
private enum RenamedCase {
  enum CounterAction: Codable, Equatable, Sendable { case increment, subtract }

  enum Action: Codable, Equatable, Sendable {
    case counter(CounterAction)
    case search(query: Bookshelf.Query)
    case add(title: String)
  }

  struct Feature: Reducer {
    func reduce(into state: inout Bookshelf.State, action: Action) -> Effect<Action> {
      switch action {
      case .counter(.increment): state.count += 1
      case .counter(.subtract): state.count -= 1
      case .search(let query): state.query = query.text
      case .add(let title): state.books.append(Bookshelf.Book(title: title, pages: 100))
      }
      return .none
    }
  }
}

/// The shelf after the query gained a limit.
private enum AddedPayloadField {
  struct Query: Codable, Equatable, Sendable {
    var text: String
    var limit: Int
  }

  enum Action: Codable, Equatable, Sendable {
    case counter(Bookshelf.CounterAction)
    case search(query: Query)
    case add(title: String)
  }

  struct Feature: Reducer {
    func reduce(into state: inout Bookshelf.State, action: Action) -> Effect<Action> {
      switch action {
      case .counter(.increment): state.count += 1
      case .counter(.decrement): state.count -= 1
      case .search(let query): state.query = query.text
      case .add(let title): state.books.append(Bookshelf.Book(title: title, pages: 100))
      }
      return .none
    }
  }
}

/// The shelf after a book gained a subtitle (empty when a stored book has none), and after
/// its pages became a `Double`.
private enum ChangedElement {
  struct Book: Codable, Equatable, Sendable {
    var title: String
    var pages: Int
    var subtitle = ""

    init(title: String, pages: Int) {
      self.title = title
      self.pages = pages
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      title = try container.decode(String.self, forKey: .title)
      pages = try container.decode(Int.self, forKey: .pages)
      subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle) ?? ""
    }
  }

  struct DoublePagesBook: Codable, Equatable, Sendable {
    var title: String
    var pages: Double
  }

  struct State<Element: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    var count = 0
    var query = ""
    var books: [Element] = []
  }

  struct Feature<Element: Codable & Equatable & Sendable>: Reducer {
    let make: @Sendable (String) -> Element

    func reduce(into state: inout State<Element>, action: Bookshelf.Action)
      -> Effect<Bookshelf.Action>
    {
      switch action {
      case .counter(.increment): state.count += 1
      case .counter(.decrement): state.count -= 1
      case .search(let query): state.query = query.text
      case .add(let title): state.books.append(make(title))
      }
      return .none
    }
  }
}

/// The shelf after its count became a `Double`.
private struct DoubleCount: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0.0
    var query = ""
    var books: [Bookshelf.Book] = []
  }

  func reduce(into state: inout State, action: Bookshelf.Action) -> Effect<Bookshelf.Action> {
    .none
  }
}

@MainActor
final class ReplayShapeTests: XCTestCase {
  private var directory: TemporaryDirectory!
  private var path = ""

  /// Steps 1 increment, 2 search, 3 decrement, 4 add.
  override func setUp() async throws {
    directory = try TemporaryDirectory()
    path = try await TraceRecording.record(
      Bookshelf.Feature(), initialState: Bookshelf.State(), in: directory
    ) { store, _ in
      store.send(.counter(.increment))
      store.send(.search(query: Bookshelf.Query(text: "swift")))
      store.send(.counter(.decrement))
      store.send(.add(title: "Dune"))
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Bookshelf.Feature()).run(), .matched(steps: 4))
  }

  func testARenamedNestedCaseNamesTheRecordedCaseAndTheTypesCases() async throws {
    XCTAssertThrowsError(try Replay(trace: path, reducer: RenamedCase.Feature()).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the action of step 3 (counter.decrement) does not fit "
          + "TraceRecorderTests.RenamedCase.Action: the trace has the case .decrement in "
          + "`.counter(_:)`, which TraceRecorderTests.RenamedCase.CounterAction does not have "
          + "(its cases: .increment, .subtract): renamed or removed since recording")
    }
  }

  func testAFieldAddedToAnAssociatedValueIsNamedAsSwiftWritesIt() async throws {
    XCTAssertThrowsError(try Replay(trace: path, reducer: AddedPayloadField.Feature()).run()) {
      error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the action of step 2 (search) does not fit "
          + "TraceRecorderTests.AddedPayloadField.Action: field `.search(query:).limit` is in "
          + "the type but not in the trace (added since recording)")
    }
  }

  func testAFieldAddedInsideAnElementTypeIsAShapeChangeAtTheStepThatShowsIt() async throws {
    let feature = ChangedElement.Feature {
      ChangedElement.Book(title: $0, pages: 100)
    }
    let result = try Replay(trace: path, reducer: feature).run()
    XCTAssertEqual(result.divergence?.step, 4)
    XCTAssertEqual(
      result.divergence?.findings,
      [
        .stateShape(
          "field `books[0].subtitle` is in the type but not in the trace (added since "
            + "recording)")
      ])
  }

  func testAnElementFieldWhoseTypeChangedIsAShapeChange() async throws {
    let feature = ChangedElement.Feature {
      ChangedElement.DoublePagesBook(title: $0, pages: 100)
    }
    let result = try Replay(trace: path, reducer: feature).run()
    XCTAssertEqual(
      result.divergence?.description,
      """
      Step 4 (add) diverged from the trace (3 steps matched before it):
        the state changed shape since recording: `books[0].pages` was an integer (100) in the \
      trace and is a Double (100.0) in the type (its type changed since recording)
      """)
  }

  func testAFieldWhoseTypeChangedIsNamedBeforeTheFirstStep() async throws {
    XCTAssertThrowsError(try Replay(trace: path, reducer: DoubleCount()).run()) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(path): the recorded state does not fit "
          + "TraceRecorderTests.DoubleCount.State: `count` was an integer (0) in the trace and "
          + "is a Double (0.0) in the type (its type changed since recording)")
    }
  }
}

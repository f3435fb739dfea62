import ComposableCore
import ComposableTesting
import XCTest

/// A note opened by a shelf's row: `watch` ticks every second under "watch" (at a low
/// priority), `unwatch` cancels "watch" from the note itself.
private struct Note: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case watch, unwatch, tick, done
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .watch:
      let clock = self.clock
      return .run(priority: .background) { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "watch")
    case .unwatch:
      return .cancel(id: "watch")
    case .tick:
      state.ticks += 1
      return .none
    case .done:
      return .none
    }
  }
}

/// A row of the shelf: opens a note (presentation) and keeps its own "watch" running.
private struct Book: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    @PresentationState var note: Note.State?
  }

  enum Action: Equatable, Sendable {
    case open
    case note(PresentationAction<Note.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open:
        state.note = Note.State()
        return .none
      case .note(.presented(.done)):
        // The parent closes the note on the note's own action.
        state.note = nil
        return .none
      case .note:
        return .none
      }
    }
    .ifLet(\.$note, action: .bookNote) { Note() }
  }
}

/// Books in `forEach`, reordered or removed by the shelf itself.
private struct Shelf: Reducer {
  struct State: Equatable, Sendable {
    var books: IdentifiedArrayOf<Book.State> = [
      Book.State(id: 1), Book.State(id: 2), Book.State(id: 3),
    ]
  }

  enum Action: Equatable, Sendable {
    case books(IdentifiedAction<Int, Book.Action>)
    case reverse
    case keepOnly(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .reverse:
        state.books = IdentifiedArray(uniqueElements: state.books.elements.reversed())
        return .none
      case let .keepOnly(id):
        state.books = IdentifiedArray(uniqueElements: state.books.elements.filter { $0.id == id })
        return .none
      case .books:
        return .none
      }
    }
    .forEach(\.books, action: .shelfBooks) { Book() }
  }
}

/// The shelf in a `Scope`: a note's effect is mapped through presentation, `forEach` and the
/// scope before the store sees it.
private struct Library: Reducer {
  struct State: Equatable, Sendable {
    var shelf = Shelf.State()
  }

  enum Action: Equatable, Sendable {
    case shelf(Shelf.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.shelf, action: .libraryShelf) { Shelf() }
  }
}

extension AnyCasePath where Root == Book.Action, Value == PresentationAction<Note.Action> {
  fileprivate static var bookNote: Self {
    .init(Root.note) { if case let .note(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Shelf.Action, Value == IdentifiedAction<Int, Book.Action> {
  fileprivate static var shelfBooks: Self {
    .init(Root.books) { if case let .books(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Library.Action, Value == Shelf.Action {
  fileprivate static var libraryShelf: Self {
    .init(Root.shelf) { if case let .shelf(action) = $0 { action } else { nil } }
  }
}

/// Effects mapped through several levels keep what they were created with, and the
/// cancellation ids of different rows' children stay apart, on a feature the fixtures do not
/// have (a note presented by each row of a `forEach` inside a `Scope`).
@MainActor
final class EffectMappingTests: XCTestCase {
  private func note(_ book: Int, _ action: Note.Action) -> Library.Action {
    .shelf(.books(.element(id: book, action: .note(.presented(action)))))
  }

  private func open(_ book: Int) -> Library.Action {
    .shelf(.books(.element(id: book, action: .open)))
  }

  private func makeStore(_ clock: TestClock, _ transcript: Transcript) -> StoreOf<Library> {
    Store(initialState: Library.State()) {
      Library().transcribed(into: transcript)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  /// Finds the first `.run` leaf of an effect.
  private func firstRun<Action>(_ effect: Effect<Action>) -> Effect<Action>.Run? {
    switch effect.node {
    case .none, .send, .cancel:
      return nil
    case let .run(run):
      return run
    case let .merge(children), let .concatenate(children):
      return children.lazy.compactMap(firstRun).first
    case let .cancellable(_, _, child):
      return firstRun(child)
    }
  }

  func testARunsPriorityAndLocationSurviveMappingThroughPresentationForEachAndScope() {
    var state = Library.State()
    state.shelf.books[id: 2]?.note = Note.State()
    let effect = Library().reduce(into: &state, action: note(2, .watch))
    let run = firstRun(effect)
    XCTAssertEqual(run?.priority, .background)
    XCTAssertEqual(
      run?.location?.description, "ComposableCoreTests/EffectMappingTests.swift:22")

    let unprioritized = Effect<Int>.run { _ in }.map { "\($0)" }
    XCTAssertNil(firstRun(unprioritized)?.priority)
    XCTAssertNotNil(firstRun(unprioritized)?.location)
  }

  func testANotesCancelReachesItsOwnWatchAndNotTheSameStepUnderAnotherRow() async {
    let clock = TestClock()
    let transcript = Transcript()
    let store = makeStore(clock, transcript)
    store.send(open(1))
    store.send(open(2))
    store.send(note(1, .watch))
    store.send(note(2, .watch))
    await clock.waitForSleepers(2)
    transcript.clear()
    // Same id, same length of path, same last step (`presentation(note)`): only the rows differ.
    store.send(note(2, .unwatch))
    await clock.advance(by: .seconds(1))
    _ = await eventually { store.state.shelf.books[id: 1]?.note?.ticks == 1 }
    XCTAssertEqual(store.state.shelf.books[id: 1]?.note, Note.State(ticks: 1))
    XCTAssertEqual(store.state.shelf.books[id: 2]?.note, Note.State(ticks: 0))
    XCTAssertEqual(
      transcript.lines.filter { $0.contains("cancelled") },
      ["  E2 cancelled in step 5: cancel(watch @ [forEach(books)#2, presentation(note)])"])
  }

  func testAParentClosingANoteOnTheNotesOwnActionTearsDownItsWatch() async {
    let clock = TestClock()
    let transcript = Transcript()
    let store = makeStore(clock, transcript)
    store.send(open(1))
    store.send(note(1, .watch))
    await clock.waitForSleepers(1)
    transcript.clear()
    store.send(note(1, .done))
    store.send(open(1))
    await clock.advance(by: .seconds(2))
    XCTAssertEqual(store.state.shelf.books[id: 1]?.note, Note.State(ticks: 0))
    XCTAssertEqual(
      transcript.lines,
      [
        "step 3 from user: .shelf(.books(.element(id: 1, action: .note(.presented(.done)))))",
        "  E1 cancelled in step 3: teardown(presentation)",
        "end of step 3",
        "step 4 from user: .shelf(.books(.element(id: 1, action: .open)))",
        "end of step 4",
      ])
  }

  func testReorderingRowsCancelsNothingAndRemovingRowsTearsThemDownInListOrder() async {
    let clock = TestClock()
    let transcript = Transcript()
    let store = makeStore(clock, transcript)
    for book in [1, 3, 2] {
      store.send(open(book))
      store.send(note(book, .watch))
    }
    await clock.waitForSleepers(3)
    transcript.clear()
    store.send(.shelf(.reverse))
    store.send(.shelf(.keepOnly(2)))
    XCTAssertEqual(store.state.shelf.books.ids, [2])
    XCTAssertEqual(
      transcript.lines.filter { !$0.hasPrefix("end") },
      [
        "step 7 from user: .shelf(.reverse)",
        "step 8 from user: .shelf(.keepOnly(2))",
        // The rows before the removal were 3, 2, 1 (reversed): 3 is torn down before 1,
        // each cancelling the effect its note started (E2 for book 3, E1 for book 1).
        "  E2 cancelled in step 8: teardown(forEach)",
        "  E1 cancelled in step 8: teardown(forEach)",
      ])
  }
}

import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A confirmation inside the editor: a nested presentation with an effect of its own.
private struct Confirm: Reducer {
  struct State: Codable, Equatable, Sendable {}
  enum Action: Codable, Equatable, Sendable { case wait, done }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .wait:
      return .run { send in  // effect: confirm
        try await clock.sleep(for: .seconds(1))
        await send(.done)
      }
    case .done:
      return .none
    }
  }
}

/// An editor presented by the board, presenting a confirmation in turn.
private struct Editor: Reducer {
  struct State: Codable, Equatable, Sendable {
    @PresentationState var confirm: Confirm.State?
  }

  enum Action: Codable, Equatable, Sendable {
    case askConfirm
    case confirm(PresentationAction<Confirm.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .askConfirm = action { state.confirm = Confirm.State() }
      return .none
    }
    .ifLet(\.$confirm, action: .editorConfirm) { Confirm() }
  }
}

/// A row that watches until cancelled.
private struct Watcher: Reducer {
  struct State: Codable, Equatable, Sendable, Identifiable {
    var id: UUID
    var isWatching = false
  }

  enum Action: Codable, Equatable, Sendable { case watch }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isWatching = true
    return .run { _ in try await clock.sleep(for: .seconds(1000)) }  // effect: watch
      .cancellable(id: "watch")
  }
}

/// Rows with effects, a nested presentation and an `onChange`.
private struct Board: Reducer {
  struct State: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<Watcher.State> = []
    @PresentationState var editor: Editor.State?
    var query = ""
    var matches = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case addRow, removeFirstRow, openEditor
    case setQuery(String)
    case searched(Int)
    case rows(IdentifiedAction<UUID, Watcher.Action>)
    case editor(PresentationAction<Editor.Action>)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce<State, Action> { state, action in
      switch action {
      case .addRow:
        state.rows.append(Watcher.State(id: uuid()))
      case .removeFirstRow:
        if let first = state.rows.first { state.rows.remove(id: first.id) }
      case .openEditor:
        state.editor = Editor.State()
      case let .setQuery(query):
        state.query = query
      case let .searched(count):
        state.matches = count
      case .rows, .editor:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .boardRows) { Watcher() }
    .ifLet(\.$editor, action: .boardEditor) { Editor() }
    .onChange(of: \.query) { _, query in
      Reduce<State, Action> { _, _ in .send(.searched(query.count)) }
    }
  }
}

extension AnyCasePath where Root == Editor.Action, Value == PresentationAction<Confirm.Action> {
  fileprivate static var editorConfirm: Self {
    .init(Root.confirm) { if case let .confirm(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Board.Action, Value == IdentifiedAction<UUID, Watcher.Action> {
  fileprivate static var boardRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Board.Action, Value == PresentationAction<Editor.Action> {
  fileprivate static var boardEditor: Self {
    .init(Root.editor) { if case let .editor(action) = $0 { action } else { nil } }
  }
}

/// A list changed element by element: the buffer of `books` is shared with the states a
/// recorder still holds, so each change copies it.
private struct Bookshelf: Reducer {
  struct State: Codable, Equatable, Sendable {
    var books: [String] = []
    var count = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case add(String)
    case rename(Int, String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(title):
      state.books.append(title)
      state.count += 1
    case let .rename(index, title):
      state.books[index] = title
    }
    return .none
  }
}

/// The Recorder, not outermost (under `.dependency`), records what the core tells: origins,
/// the effects of nested children with their labels, every cancellation with its cause and
/// step, and the values read.
@MainActor
final class RecorderSeamTests: XCTestCase {
  func testEverythingTheCoreToldIsInTheTrace() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("board.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Board.State()) {
      Board().recording(to: recorder).dependency(\.uuid, .incrementing)
    } withDependencies: {
      $0.continuousClock = clock
    }
    let row = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    let second = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    store.send(.addRow)  // 1
    store.send(.rows(.element(id: row, action: .watch)))  // 2
    store.send(.setQuery("ab"))  // 3, and 4 from its onChange
    store.send(.openEditor)  // 5
    store.send(.editor(.presented(.askConfirm)))  // 6
    store.send(.editor(.presented(.confirm(.presented(.wait)))))  // 7
    await waitUntil("both sleep") { clock.sleeperCount == 2 }
    store.send(.editor(.dismiss))  // 8
    store.send(.removeFirstRow)  // 9
    store.send(.addRow)  // 10
    let watch = store.send(.rows(.element(id: second, action: .watch)))  // 11
    await waitUntil("the second row sleeps") { clock.sleeperCount == 1 }
    watch.cancel()
    await watch.finish()
    await recorder.waitUntilFinished()

    let reader = try TraceReader(path: path)
    let effects = try reader.effects().sorted { $0.startedByStep < $1.startedByStep }
    let names = Dictionary(
      uniqueKeysWithValues: effects.enumerated().map { ($1.id, "E\($0 + 1)") })
    let rows = try reader.rows(from: 0, to: 99).map { row -> String in
      var origin = row.origin.storageText
      if case .effect(let id) = row.origin { origin = names[id] ?? "?" }
      let changed = row.changedPaths.joined(separator: ", ")
      return "\(row.step) \(origin) \(row.actionPath) → \(changed)"
    }
    XCTAssertEqual(
      rows,
      [
        "0 initial  → ",
        "1 user addRow → rows[id: \"\(row)\"]",
        "2 user rows.element.watch → rows[id: \"\(row)\"].isWatching",
        "3 user setQuery → query",
        "4 send:3 searched → matches",
        "5 user openEditor → editor",
        "6 user editor.presented.askConfirm → editor.confirm",
        "7 user editor.presented.confirm.presented.wait → ",
        "8 user editor.dismiss → editor",
        "9 user removeFirstRow → rows[id: \"\(row)\"]",
        "10 user addRow → rows[id: \"\(second)\"]",
        "11 user rows.element.watch → rows[id: \"\(second)\"].isWatching",
      ])
    XCTAssertEqual(
      effects.map { effect in
        "\(names[effect.id]!) by \(effect.startedByStep) [\(effect.cancelID ?? "")] "
          + "\(effect.outcome) sent \(effect.sentSteps)"
      },
      [
        "E1 by 2 [forEach(rows)#\(row), watch @ [forEach(rows)#\(row)]] "
          + "cancelled(reason: \"forEach\", byStep: Optional(9)) sent []",
        "E2 by 7 [presentation(editor), presentation(confirm) @ [presentation(editor)]] "
          + "cancelled(reason: \"presentation\", byStep: Optional(8)) sent []",
        "E3 by 11 [forEach(rows)#\(second), watch @ [forEach(rows)#\(second)]] "
          + "cancelled(reason: \"storeTask\", byStep: nil) sent []",
      ])
    XCTAssertEqual(
      try [1, 10].map { try reader.dependencies(at: $0) },
      [
        [DependencyRead(key: "uuid", value: .string(row.uuidString))],
        [DependencyRead(key: "uuid", value: .string(second.uuidString))],
      ])
    XCTAssertEqual(try reader.info().metadata.rootReducer, "DependencyKeyWritingReducer<"
      + "RecordingReducer<Board>>")
  }

  func testATestStoreRecordsTheActionsOfTheFeatureItTests() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("test-store.rewind")
    let recorder = try Recorder(path: path)
    let store = TestStore(initialState: Board.State()) {
      Board().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.setQuery("abc")) { $0.query = "abc" }
    await store.receive(.searched(3)) { $0.matches = 3 }
    await recorder.waitUntilFinished()
    let rows = try TraceReader(path: path).rows(from: 1, to: 9)
    XCTAssertEqual(rows.map(\.actionPath), ["setQuery", "searched"])
    XCTAssertEqual(rows.map(\.origin), [.user, .send(step: 1)])
  }

  /// The core hands its instruments the state where the store keeps it; each recorder copies
  /// it into its own queue. Two recorders on one store (the core tells both) each hold every
  /// state as it was after its step, while the store goes on changing the same buffers.
  func testTwoRecordersOnOneStoreEachRecordEveryStateAsItWas() async throws {
    let directory = try TemporaryDirectory()
    let paths = [directory.path("first.rewind"), directory.path("second.rewind")]
    let first = try Recorder(path: paths[0])
    let second = try Recorder(path: paths[1])
    let store = Store(initialState: Bookshelf.State()) {
      Bookshelf().recording(to: first).recording(to: second)
    }
    store.send(.add("Emma"))
    store.send(.add("Ulysses"))
    store.send(.rename(0, "Persuasion"))
    XCTAssertEqual(store.state, Bookshelf.State(books: ["Persuasion", "Ulysses"], count: 2))
    await first.waitUntilFinished()
    await second.waitUntilFinished()
    func shelf(_ books: [String], _ count: Int64) -> TraceValue {
      .object([TraceField("books", .array(books.map(TraceValue.string))), TraceField("count", .int(count))])
    }
    let expected = [
      shelf([], 0), shelf(["Emma"], 1), shelf(["Emma", "Ulysses"], 2),
      shelf(["Persuasion", "Ulysses"], 2),
    ]
    for path in paths {
      let reader = try TraceReader(path: path)
      XCTAssertEqual(try reader.rows(from: 0, to: 9).map(\.step), [0, 1, 2, 3], path)
      XCTAssertEqual(try (0...3).map { try reader.state(at: $0) }, expected, path)
    }
  }
}

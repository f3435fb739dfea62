import ComposableCore
import XCTest

/// Two sheets of one state type, told apart only by their action cases.
private struct TwoSheets: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var list: Sleeper.State?
    @PresentationState var editor: Sleeper.State?
  }

  enum Action: Equatable, Sendable {
    case list(PresentationAction<Sleeper.Action>)
    case editor(PresentationAction<Sleeper.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(\.$list, action: .twoSheetsList) { Sleeper(log: EventLog(), name: "list") }
      .ifLet(\.$editor, action: .twoSheetsEditor) { Sleeper(log: EventLog(), name: "editor") }
  }
}

extension AnyCasePath where Root == TwoSheets.Action, Value == PresentationAction<Sleeper.Action>
{
  fileprivate static var twoSheetsList: Self {
    .init(Root.list) { if case let .list(action) = $0 { action } else { nil } }
  }
  fileprivate static var twoSheetsEditor: Self {
    .init(Root.editor) { if case let .editor(action) = $0 { action } else { nil } }
  }
}

final class ReducerNodeTests: XCTestCase {
  func testParentTreeNamesEveryReducerAndStatePath() {
    XCTAssertEqual(
      reducerNode(of: Parent()).render(),
      """
      Parent
        sequence
          scope counter (Counter)
            Counter
              reduce
          forEach rows (Row)
            ifLet detail (Counter)
              reduce
              Counter
                reduce
            Row
      """
    )
  }

  func testAScopeOverACaseIsNamedByTheCase() {
    XCTAssertEqual(
      reducerNode(of: Session()).render(),
      """
      Session
        sequence
          scope loggedIn (Counter)
            Counter
              reduce
          reduce
      """
    )
  }

  func testPresentedChildrenAreNamedByTheirActionCases() {
    // `\.$list` is a computed key path: Linux prints it with an address, not a name.
    XCTAssertEqual(
      reducerNode(of: TwoSheets()).render(),
      """
      TwoSheets
        presentation editor (Sleeper)
          presentation list (Sleeper)
            empty
            Sleeper
          Sleeper
      """
    )
  }

  func testCancelIDsOfPresentedChildrenAreStableAndDistinct() {
    let list = NavigationID(
      kind: .presentation, keyPath: \TwoSheets.State.$list,
      label: ReducerLabel(keyPath: \TwoSheets.State.$list, presentation: .twoSheetsList))
    let editor = NavigationID(
      kind: .presentation, keyPath: \TwoSheets.State.$editor,
      label: ReducerLabel(keyPath: \TwoSheets.State.$editor, presentation: .twoSheetsEditor))
    XCTAssertEqual(
      [list.description, editor.description], ["presentation(list)", "presentation(editor)"])
    XCTAssertNotEqual(list, editor)
  }

  func testStoredKeyPathsAreNamedByTheirProperties() {
    XCTAssertEqual(ReducerLabel(keyPath: \Parent.State.counter.count).text, "counter.count")
    XCTAssertEqual(
      NavigationID(kind: .forEach, keyPath: \Parent.State.rows, elementID: .init(7)).description,
      "forEach(rows)#7")
  }

  func testACasePathNameIsPreferred() {
    XCTAssertEqual(
      ReducerLabel(keyPath: \Parent.State.counter, caseName: "\\.main").text, "main")
  }

  func testAComputedKeyPathWithoutANameKeepsItsTypeNotItsAddress() {
    struct Holder {
      var stored = 0
      var computed: Int { stored + 1 }
    }
    // Linux prints `\Holder.<computed 0x… (Int)>`; the address differs from run to run.
    XCTAssertEqual(ReducerLabel(keyPath: \Holder.computed).text, "\\.<computed Int>")
  }
}

/// A feature whose rows are the feature itself.
private struct Nested: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var rows: IdentifiedArrayOf<State> = []
  }

  indirect enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Action>)
    case add
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .add = action { state.rows.append(State(id: state.rows.count)) }
      return .none
    }
    .forEach(\.rows, action: .nestedRows) { Nested() }
  }
}

extension AnyCasePath where Root == Nested.Action, Value == IdentifiedAction<Int, Nested.Action> {
  fileprivate static var nestedRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

@MainActor
final class RecursiveReducerTests: XCTestCase {
  func testARecursiveFeatureIsWalkedOnceAndRuns() async {
    XCTAssertEqual(
      reducerNode(of: Nested()).render(),
      """
      Nested
        forEach rows (Nested)
          reduce
          Nested (recursive)
      """)
    let transcript = Transcript()
    let store = Store(initialState: Nested.State(id: 0)) { Nested().transcribed(into: transcript) }
    store.send(.add)
    store.send(.rows(.element(id: 0, action: .add)))
    XCTAssertEqual(store.rows[id: 0]?.rows.count, 1)
    XCTAssertEqual(transcript.lines.count, 5)
  }
}

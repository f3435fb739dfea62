import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A desk whose rows (run by `forEach`) each present an optional editor, and whose presented
/// detail presents a note of its own that holds a double optional: the changes the Recorder
/// writes when the presentations come and go and when something deep inside them changes,
/// step after step (the writer's walkers and entries are reused from one step to the next).
private struct Desk: Reducer {
  struct Editor: Equatable, Codable, Sendable {
    var text = ""
    var draft: String??
  }

  struct Row: Reducer {
    struct State: Equatable, Codable, Sendable, Identifiable {
      var id: Int
      var name: String
      @PresentationState var editor: Editor?
    }

    enum Action: Equatable, Codable, Sendable {
      case edit
      case type(String)
      case draft(String??)
      case close
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .edit: state.editor = Editor()
        case let .type(text): state.editor?.text = text
        case let .draft(draft): state.editor?.draft = draft
        case .close: state.editor = nil
        }
        return .none
      }
    }
  }

  struct Note: Equatable, Codable, Sendable {
    var text: String
    var pinned: Bool??
  }

  struct Detail: Equatable, Codable, Sendable {
    var title: String
    @PresentationState var note: Note?
    var edits = 0
  }

  struct State: Equatable, Codable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = [
      Row.State(id: 1, name: "one"), Row.State(id: 2, name: "two"),
    ]
    @PresentationState var detail: Detail?
    var count = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case open(String)
    case note(String)
    case pin(Bool??)
    case retitle(String)
    case closeNote
    case close
    case tick
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows: break
      case let .open(title): state.detail = Detail(title: title)
      case let .note(text): state.detail?.note = Note(text: text)
      case let .pin(pinned):
        state.detail?.note?.pinned = pinned
        state.detail?.edits += 1
      case let .retitle(title): state.detail?.title = title
      case .closeNote: state.detail?.note = nil
      case .close: state.detail = nil
      case .tick: state.count += 1
      }
      return .none
    }
    .forEach(
      \.rows,
      action: AnyCasePath(Action.rows) {
        if case let .rows(action) = $0 { action } else { nil }
      }
    ) { Row() }
  }
}

@MainActor
final class RecordedPresentationsTests: XCTestCase {
  func testChangesInsideNestedPresentationsAndRowsAreTheirOwnPathsStepAfterStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("desk.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Desk.State()) { Desk().recording(to: recorder) }
    var states = [try Self.encoded(store.state)]
    func send(_ action: Desk.Action) throws {
      store.send(action)
      states.append(try Self.encoded(store.state))
    }
    try send(.open("plan"))  // 1
    try send(.note("a"))  // 2
    try send(.pin(.some(nil)))  // 3: the marker of a double optional
    try send(.pin(true))  // 4
    try send(.tick)  // 5
    try send(.retitle("plan b"))  // 6
    try send(.pin(nil))  // 7
    try send(.rows(.element(id: 2, action: .edit)))  // 8
    try send(.rows(.element(id: 2, action: .type("x"))))  // 9
    try send(.rows(.element(id: 2, action: .draft(.some(nil)))))  // 10
    try send(.closeNote)  // 11
    try send(.note("b"))  // 12
    try send(.rows(.element(id: 2, action: .close)))  // 13
    try send(.close)  // 14
    try send(.open("again"))  // 15
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    var changes: [[String]] = []
    for step in 1...15 { changes.append(try reader.changes(at: step).map(\.description)) }
    XCTAssertEqual(
      changes,
      [
        [#"set detail (title: "plan", note: nil, edits: 0)"#],
        [#"set detail.note (text: "a", pinned: nil)"#],
        ["set detail.note.pinned .Optional.some(nil)", "set detail.edits 1"],
        ["set detail.note.pinned true", "set detail.edits 2"],
        ["set count 1"],
        [#"set detail.title "plan b""#],
        ["set detail.note.pinned nil", "set detail.edits 3"],
        [#"set rows[id: 2].editor (text: "", draft: nil)"#],
        [#"set rows[id: 2].editor.text "x""#],
        ["set rows[id: 2].editor.draft .Optional.some(nil)"],
        ["set detail.note nil"],
        [#"set detail.note (text: "b", pinned: nil)"#],
        ["set rows[id: 2].editor nil"],
        ["set detail nil"],
        [#"set detail (title: "again", note: nil, edits: 0)"#],
      ])
    // The same changes as diffing the whole states, and every step's state, rebuilt from the
    // keyframe and the changes, is the state sent.
    for step in 1...15 {
      let whole = TraceDiff.changesAndPaths(from: states[step - 1], to: states[step])
      XCTAssertEqual(try reader.changes(at: step), whole.changes, "step \(step)")
      XCTAssertEqual(try reader.state(at: step), states[step], "step \(step)")
    }
  }

  private static func encoded(_ state: Desk.State) throws -> TraceValue {
    try TraceValueEncoder().encodeReplacingClassInstances(state).value
  }
}

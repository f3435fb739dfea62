import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A form's binding actions are recorded as the field they set and its value (its key path is
/// not storage): an `Encodable` value through the encoder, which decides it at its place; any
/// other as its text, a placeholder when a class instance is in it.
@MainActor
final class RecorderBindingActionTests: XCTestCase {
  func testATextFieldAndAToggleAreRecordedAsTheirFieldsAndValues() async throws {
    let directory = try TemporaryDirectory()
    let (issues, reader) = try await record(in: directory) { recorder in
      let store = Store(initialState: ProfileForm.State()) { ProfileForm().recording(to: recorder) }
      let actions: [ProfileForm.Action] = [
        .set(\.name, "B"), .set(\.name, "Blob"), .set(\.isPublic, true), .save,
        .set(\.isPublic, false),
      ]
      for action in actions { store.send(action) }
    }
    XCTAssertEqual(issues, [])
    XCTAssertEqual(
      try (1...5).map { try reader.action(at: $0).description },
      [
        #".binding((set: (keyPath: "\\State.name", value: "B")))"#,
        #".binding((set: (keyPath: "\\State.name", value: "Blob")))"#,
        #".binding((set: (keyPath: "\\State.isPublic", value: true)))"#,
        ".save",
        #".binding((set: (keyPath: "\\State.isPublic", value: false)))"#,
      ])
    XCTAssertEqual(
      try (0...5).map { try reader.state(at: $0).description },
      [
        #"(name: "", isPublic: false, saves: 0)"#, #"(name: "B", isPublic: false, saves: 0)"#,
        #"(name: "Blob", isPublic: false, saves: 0)"#,
        #"(name: "Blob", isPublic: true, saves: 0)"#, #"(name: "Blob", isPublic: true, saves: 1)"#,
        #"(name: "Blob", isPublic: false, saves: 1)"#,
      ])
  }

  /// A binding whose value is an `Encodable` class instance passes it to the encoder, which
  /// writes the placeholder at the value's place: the field it set stays recorded.
  func testABindingThatSetsAClassInstanceKeepsItsFieldAndPlaceholdsTheValue() async throws {
    let directory = try TemporaryDirectory()
    let owner = BindingOwner()
    let (issues, reader) = try await record(in: directory) { recorder in
      let store = Store(initialState: OwnerForm.State(owner: owner)) {
        OwnerForm().recording(to: recorder)
      }
      store.send(.set(\.owner, owner))
      owner.name = "changed after the step"
      store.send(.set(\.name, "Blob"))
    }
    XCTAssertEqual(issues.count, 2, "\(issues)")
    XCTAssertEqual(
      try (1...2).map { try reader.action(at: $0).description },
      [
        #".binding((set: (keyPath: "\\State.owner", value: "<not recorded: BindingOwner is a class>")))"#,
        #".binding((set: (keyPath: "\\State.name", value: "Blob")))"#,
      ])
  }

  /// A binding whose value is not `Encodable` is recorded as the value's text, which reads all
  /// of it: a placeholder when a class instance is in it at any depth.
  func testABindingOfANonEncodableValueIsItsTextUnlessAClassIsInIt() async throws {
    let directory = try TemporaryDirectory()
    let owner = BindingOwner()
    let (issues, reader) = try await record(in: directory) { recorder in
      let store = Store(initialState: TagForm.State()) { TagForm().recording(to: recorder) }
      store.send(.set(\.label, BindingLabel(text: "plain")))
      store.send(.set(\.tag, BindingTag(held: BindingTag.Held(owner: owner))))
      owner.name = "changed after the step"
      store.send(.set(\.label, BindingLabel(text: "again")))
    }
    XCTAssertEqual(issues.count, 1, "\(issues)")
    XCTAssertEqual(
      try (1...3).map { try reader.action(at: $0).description },
      [
        #".binding((set: (keyPath: "\\State.label", value: "TraceRecorderTests.BindingLabel(text: \"plain\")")))"#,
        #".binding("<not recorded: BindingAction<State> holds class instances>")"#,
        #".binding((set: (keyPath: "\\State.label", value: "TraceRecorderTests.BindingLabel(text: \"again\")")))"#,
      ])
  }

  /// Records what `send` sends into a new trace in `directory` until the recorder finished
  /// (with no error): the issues reported meanwhile, and the trace.
  private func record(
    in directory: TemporaryDirectory, _ send: (Recorder) async -> Void
  ) async throws -> (issues: [String], reader: TraceReader) {
    let path = directory.path("form.rewind")
    let recorder = try Recorder(path: path)
    let issues = await collectingIssues {
      await send(recorder)
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    return (issues, try TraceReader(path: path))
  }
}

/// A value a form holds that is not `Encodable`, with no class instance in it.
struct BindingLabel: Equatable, Sendable {
  var text: String
}

/// A value a form holds that is not `Encodable`, with a class instance two levels down.
struct BindingTag: Equatable, Sendable {
  struct Held: Equatable, Sendable {
    var owner: BindingOwner
  }

  var held: Held
}

/// A form whose bindings set values that are not `Encodable` (its state encodes only its
/// count of changes).
private struct TagForm: Reducer {
  struct State: Encodable, Equatable, Sendable {
    var label = BindingLabel(text: "")
    var tag: BindingTag?
    var changes = 0

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(changes)
    }
  }

  enum Action: Encodable, Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, _ in
      state.changes += 1
      return .none
    }
  }
}

/// A form with a text field and a toggle.
private struct ProfileForm: Reducer {
  struct State: Encodable, Equatable, Sendable {
    var name = ""
    var isPublic = false
    var saves = 0
  }

  enum Action: Encodable, Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)
    case save
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .save = action { state.saves += 1 }
      return .none
    }
  }
}

/// A shared owner, changed in place.
final class BindingOwner: Encodable, Equatable, @unchecked Sendable {
  var name = "owner"

  static func == (lhs: BindingOwner, rhs: BindingOwner) -> Bool { lhs === rhs }
}

/// A form whose binding sets a class instance.
private struct OwnerForm: Reducer {
  struct State: Encodable, Equatable, Sendable {
    var name = ""
    var owner: BindingOwner
  }

  enum Action: Encodable, Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A form's binding actions are recorded as the field they set and its value: a binding holds
/// what its value holds (its key path is not storage), decided for each action by the value's
/// type.
@MainActor
final class RecorderBindingActionTests: XCTestCase {
  func testATextFieldAndAToggleAreRecordedAsTheirFieldsAndValues() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("profile.rewind")
    let recorder = try Recorder(path: path)
    let issues = await collectingIssues {
      let store = Store(initialState: ProfileForm.State()) { ProfileForm().recording(to: recorder) }
      let actions: [ProfileForm.Action] = [
        .set(\.name, "B"), .set(\.name, "Blob"), .set(\.isPublic, true), .save,
        .set(\.isPublic, false),
      ]
      for action in actions { store.send(action) }
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    XCTAssertEqual(issues, [])
    let reader = try TraceReader(path: path)
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

  /// A binding whose value is a class instance holds one: it is a placeholder, the next
  /// binding (a text) is recorded.
  func testABindingThatSetsAClassInstanceIsAPlaceholder() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("owner.rewind")
    let recorder = try Recorder(path: path)
    let owner = Owner()
    let issues = await collectingIssues {
      let store = Store(initialState: OwnerForm.State(owner: owner)) {
        OwnerForm().recording(to: recorder)
      }
      store.send(.set(\.owner, owner))
      owner.name = "changed after the step"
      store.send(.set(\.name, "Blob"))
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    XCTAssertEqual(issues.count, 2, "\(issues)")
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try (1...2).map { try reader.action(at: $0).description },
      [
        #".binding("<not recorded: BindingAction<State> holds class instances>")"#,
        #".binding((set: (keyPath: "\\State.name", value: "Blob")))"#,
      ])
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
private final class Owner: Encodable, Equatable, @unchecked Sendable {
  var name = "owner"

  static func == (lhs: Owner, rhs: Owner) -> Bool { lhs === rhs }
}

/// A form whose binding sets a class instance.
private struct OwnerForm: Reducer {
  struct State: Encodable, Equatable, Sendable {
    var name = ""
    var owner: Owner
  }

  enum Action: Encodable, Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

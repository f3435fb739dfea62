import ComposableCore
import ComposableTesting
import Foundation
import XCTest

/// A form whose fields are set by bindings; the reducer reacts to a change of `name`.
struct SignUpForm: Reducer {
  struct State: Equatable, Sendable, Encodable {
    var name = ""
    var age = 0
    var nameIsValid = false
  }

  enum Action: Equatable, Sendable, BindableAction, Encodable {
    case binding(BindingAction<State>)
    case submit
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.name):
        state.nameIsValid = !state.name.isEmpty
        return .none
      case .binding, .submit:
        return .none
      }
    }
  }
}

extension SignUpForm.Action: CasePathable {
  struct AllCasePaths {
    var binding: AnyCasePath<SignUpForm.Action, BindingAction<SignUpForm.State>> {
      AnyCasePath<SignUpForm.Action, BindingAction<SignUpForm.State>>(
        embed: SignUpForm.Action.binding,
        extract: {
          guard case let .binding(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// A screen whose binding actions sit in a `view` case.
struct SignUpScreen: Reducer {
  typealias State = SignUpForm.State

  enum Action: Equatable, Sendable {
    case view(SignUpForm.Action)
    case closed
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
  }
}

extension SignUpScreen.Action: CasePathable {
  struct AllCasePaths {
    var view: AnyCasePath<SignUpScreen.Action, SignUpForm.Action> {
      AnyCasePath<SignUpScreen.Action, SignUpForm.Action>(
        embed: SignUpScreen.Action.view,
        extract: {
          guard case let .view(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

@MainActor
final class BindingTests: XCTestCase {
  func testBindingReducerSetsTheFieldBeforeTheReducersThatReact() async {
    let store = TestStore(initialState: SignUpForm.State()) { SignUpForm() }
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.name = "Blob"
      $0.nameIsValid = true
    }
    await store.send(.set(\.age, 3)) { $0.age = 3 }
    await store.send(\.binding.name, "") {
      $0.name = ""
      $0.nameIsValid = false
    }
  }

  func testBindingReducerFindsBindingsInACaseOfTheAction() async {
    let store = TestStore(initialState: SignUpScreen.State()) { SignUpScreen() }
    await store.send(.view(.set(\.age, 40))) { $0.age = 40 }
    await store.send(.closed)
  }

  func testBindingActionsCompareByFieldAndValueAndDescribeThemselves() async {
    typealias Binding = BindingAction<SignUpForm.State>
    XCTAssertEqual(Binding.set(\.name, "a"), Binding.set(\.name, "a"))
    XCTAssertNotEqual(Binding.set(\.name, "a"), Binding.set(\.name, "b"))
    XCTAssertNotEqual(Binding.set(\.age, 1), Binding.set(\.age, 2))
    XCTAssertEqual("\(Binding.set(\.name, "Blob"))", #".set(\State.name, "Blob")"#)
    XCTAssertEqual(
      AnyCasePath(\SignUpForm.Action.Cases.binding.name).name, "binding.name")
    XCTAssertEqual(
      AnyCasePath(\SignUpForm.Action.Cases.binding.name).extract(.set(\.name, "x")), "x")
    XCTAssertNil(AnyCasePath(\SignUpForm.Action.Cases.binding.name).extract(.set(\.age, 1)))
  }

  func testABindingActionEncodesItsFieldAndValue() async throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = String(
      decoding: try encoder.encode(SignUpForm.Action.set(\.name, "Blob")), as: UTF8.self)
    XCTAssertEqual(json, #"{"binding":{"_0":{"set":{"keyPath":"\\State.name","value":"Blob"}}}}"#)
  }
}

import ComposableCore
import XCTest

/// A feature whose body uses every builder form.
private struct Built: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable { case go }

  let flag: Bool
  let optional: Bool
  let names: [String]

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.log.append("first")
      return .none
    }
    if flag {
      Reduce { state, _ in
        state.log.append("if")
        return .none
      }
    } else {
      Reduce { state, _ in
        state.log.append("else")
        return .none
      }
    }
    if optional {
      Reduce { state, _ in
        state.log.append("optional")
        return .none
      }
    }
    for name in names {
      Reduce { state, _ in
        state.log.append(name)
        return .none
      }
    }
    CombineReducers {
      Reduce { state, _ in
        state.log.append("combined")
        return .send(.go).cancellable(id: "never-started-twice", cancelInFlight: true)
      }
    }
    .onChange(of: \.log.count) { _, newValue in
      Reduce { state, _ in
        state.log.append("changed to \(newValue)")
        return .none
      }
    }
  }
}

/// A parent that composes a child known only by its protocol (an injected feature).
private struct Injected: Reducer {
  let child: any Reducer<Built.State, Built.Action>

  var body: some ReducerOf<Built> {
    Reduce(child)
    Reduce { state, _ in
      state.log.append("parent")
      return .none
    }
  }
}

@MainActor
final class ReducerBuilderTests: XCTestCase {
  func testBodyComposesAReducerKnownOnlyByItsProtocol() async {
    var state = Built.State()
    let injected = Injected(child: Built(flag: true, optional: false, names: []))
    _ = injected.reduce(into: &state, action: .go)
    XCTAssertEqual(state.log, ["first", "if", "combined", "changed to 3", "parent"])
  }

  func testBuilderRunsReducersInOrderOnTheSameState() async {
    var state = Built.State()
    _ = Built(flag: true, optional: true, names: ["a", "b"]).reduce(into: &state, action: .go)
    XCTAssertEqual(
      state.log, ["first", "if", "optional", "a", "b", "combined", "changed to 6"])
  }

  func testBuilderElseBranchAndMissingOptional() async {
    var state = Built.State()
    _ = Built(flag: false, optional: false, names: []).reduce(into: &state, action: .go)
    XCTAssertEqual(state.log, ["first", "else", "combined", "changed to 3"])
  }

  func testDependencyOverrideAppliesToTheReducerOnly() async {
    let reducer = Reduce<[String], Int> { state, _ in
      @Dependency(\.date) var date
      state.append("\(date.now.timeIntervalSince1970)")
      return .none
    }
    .dependency(\.date, .constant(Date(timeIntervalSince1970: 5)))
    var state: [String] = []
    _ = reducer.reduce(into: &state, action: 0)
    XCTAssertEqual(state, ["5.0"])
  }
}

import Foundation

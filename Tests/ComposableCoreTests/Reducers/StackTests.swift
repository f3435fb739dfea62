import ComposableCore
import ComposableTesting
import Foundation
import XCTest

/// A page of a navigation stack: a timer, a title, and a close button that pops it.
struct StackPage: Reducer {
  struct State: Equatable, Codable, Sendable {
    var title: String
    var seconds = 0
  }

  enum Action: Equatable, Sendable {
    case rename(String), startTimer, tick, close
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .rename(title):
      state.title = title
      return .none
    case .startTimer:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.seconds += 1
      return .none
    case .close:
      return .run { _ in await dismiss() }
    }
  }
}

/// The parent of the stack: pushes pages, and notes what it saw before a pop.
struct Navigator: Reducer {
  struct State: Equatable {
    var path = StackState<StackPage.State>()
    var countBeforePop: Int?
  }

  enum Action: Equatable, Sendable {
    case path(StackActionOf<StackPage>)
    case pushPage(String)
    case popAll
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .pushPage(title):
        state.path.append(StackPage.State(title: title))
        return .none
      case .popAll:
        state.path.removeAll()
        return .none
      case .path(.popFrom):
        state.countBeforePop = state.path.count
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { StackPage() }
  }
}

extension Navigator.Action: CasePathable {
  struct AllCasePaths {
    var path: AnyCasePath<Navigator.Action, StackActionOf<StackPage>> {
      AnyCasePath<Navigator.Action, StackActionOf<StackPage>>(
        embed: Navigator.Action.path,
        extract: {
          guard case let .path(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

@MainActor
final class StackTests: XCTestCase {
  private func makeStore(_ clock: TestClock = TestClock()) -> TestStoreOf<Navigator> {
    TestStore(initialState: Navigator.State()) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  func testPushElementActionsAndPopFrom() async {
    let store = makeStore()
    await store.send(.pushPage("a")) { $0.path.append(StackPage.State(title: "a")) }
    XCTAssertEqual(store.state.path.ids, [0])
    await store.send(.path(.element(id: 0, action: .rename("A")))) {
      $0.path[id: 0]?.title = "A"
    }
    await store.send(.path(.push(id: 1, state: StackPage.State(title: "b")))) {
      $0.path[id: 1] = StackPage.State(title: "b")
    }
    await store.send(.pushPage("c")) { $0.path.append(StackPage.State(title: "c")) }
    XCTAssertEqual(store.state.path.ids, [0, 1, 2])
    await store.send(.path(.popFrom(id: 1))) {
      $0.countBeforePop = 3
      $0.path.pop(from: 1)
    }
    XCTAssertEqual(store.state.path.map(\.title), ["A"])
  }

  func testEffectsOfPoppedElementsAreCancelled() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.pushPage("a")) { $0.path.append(StackPage.State(title: "a")) }
    await store.send(.pushPage("b")) { $0.path.append(StackPage.State(title: "b")) }
    // The timers' deadlines differ, so which ticks first does not depend on scheduling.
    await store.send(.path(.element(id: 0, action: .startTimer)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    await store.send(.path(.element(id: 1, action: .startTimer)))
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.seconds = 1 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.seconds = 1 }
    await store.send(.path(.popFrom(id: 1))) {
      $0.countBeforePop = 2
      $0.path.pop(from: 1)
    }
    await clock.waitForSleepers(1)
    await store.send(.popAll) { $0.path.removeAll() }
    await clock.waitForSleepers(0)
    await store.finish()
  }

  func testDismissPopsTheElement() async {
    let store = makeStore()
    await store.send(.pushPage("a")) { $0.path.append(StackPage.State(title: "a")) }
    await store.send(.pushPage("b")) { $0.path.append(StackPage.State(title: "b")) }
    await store.send(.path(.element(id: 1, action: .close)))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.countBeforePop = 2
      $0.path.pop(from: 1)
    }
    await store.finish()
  }

  func testMisusesAreReported() async {
    let store = Store(initialState: Navigator.State()) { Navigator() }
    store.send(.pushPage("a"))
    let id = store.path.ids[0]
    let (_, issues) = withIssueCollection {
      store.send(.path(.element(id: StackElementID(generation: id.generation + 5), action: .tick)))
      store.send(.path(.push(id: id, state: StackPage.State(title: "dup"))))
      store.send(.path(.popFrom(id: StackElementID(generation: id.generation + 9))))
    }
    let firstLines = issues.map { $0.message.split(separator: "\n").first.map(String.init) }
    let location = "ComposableCoreTests/StackTests.swift:70"
    XCTAssertEqual(
      firstLines,
      [
        "A \"forEach\" at \"\(location)\" received an action for a missing element.",
        "A \"forEach\" at \"\(location)\" received a \"push\" action for an element it already "
          + "contains.",
        "A \"forEach\" at \"\(location)\" received a \"popFrom\" action for a missing element.",
      ])
    XCTAssertEqual(store.path.count, 1)
  }

  func testTheTreeAndTheCancelIDsNameTheStack() async {
    XCTAssertEqual(
      reducerNode(of: Navigator()).render(),
      """
      Navigator
        stack path (StackPage)
          reduce
          StackPage
      """)
    let clock = TestClock()
    let transcript = Transcript()
    let store = Store(initialState: Navigator.State()) {
      Navigator().transcribed(into: transcript)
    } withDependencies: {
      $0.continuousClock = clock
      $0.stackElementID = StackElementIDGenerator()
    }
    store.send(.pushPage("a"))
    store.send(.path(.element(id: 0, action: .startTimer)))
    await clock.waitForSleepers(1)
    store.send(.popAll)
    // The popped element's effect is cancelled while the stack's reducer runs, as a teardown.
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .pushPage("a")
      end of step 1
      step 2 from user: .path(.element(id: #0, action: .startTimer))
      end of step 2
      E1 started by step 2: run [stack(path)#0]
      step 3 from user: .popAll
        E1 cancelled in step 3: teardown(stack)
      end of step 3
      """)
    await clock.waitForSleepers(0)
  }
}

final class StackStateTests: XCTestCase {
  private enum Screen: Equatable, Codable, CasePathable {
    case detail(String)
    case settings

    struct AllCasePaths {
      var detail: AnyCasePath<Screen, String> {
        AnyCasePath<Screen, String>(
          embed: Screen.detail,
          extract: {
            guard case let .detail(v0) = $0 else { return nil }
            return v0
          }
        )
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func testIDsCountUpAndAreNotReused() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var path = StackState<Int>([10, 20])
      XCTAssertEqual(path.ids, [0, 1])
      path.removeAll()
      path.append(30)
      XCTAssertEqual(path.ids, [2])
      XCTAssertEqual(path[id: 2], 30)
      XCTAssertNil(path[id: 0])
      XCTAssertEqual("\(path.ids)", "[#2]")
    }
  }

  func testCaseSubscriptWritesTheCaseAndReportsAnotherCase() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var path = StackState<Screen>([.detail("a"), .settings])
      path[id: 0, case: \.detail] = "b"
      XCTAssertEqual(path[id: 0], .detail("b"))
      let (_, issues) = withIssueCollection {
        path[id: 1, case: \.detail] = "c"
      }
      XCTAssertEqual(path[id: 1], .settings)
      XCTAssertEqual(
        issues.map(\.message), ["Can't modify unrelated case: the element #1 is .settings."])
    }
  }

  func testCodableKeepsTheIDs() throws {
    let path = withDependencies {
      $0.stackElementID = StackElementIDGenerator(startingAt: 4)
    } operation: {
      StackState<Screen>([.detail("a"), .settings])
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(path), as: UTF8.self)
    XCTAssertEqual(
      json, #"[{"element":{"detail":{"_0":"a"}},"id":4},{"element":{"settings":{}},"id":5}]"#)
    XCTAssertEqual(try JSONDecoder().decode(StackState<Screen>.self, from: Data(json.utf8)), path)
    let duplicated = #"[{"element":{"settings":{}},"id":1},{"element":{"settings":{}},"id":1}]"#
    XCTAssertThrowsError(
      try JSONDecoder().decode(StackState<Screen>.self, from: Data(duplicated.utf8)))
  }
}

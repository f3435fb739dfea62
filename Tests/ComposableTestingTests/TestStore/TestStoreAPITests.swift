@testable import ComposableTesting
import ComposableCore
import XCTest

/// A refresh that changes two fields and answers with two actions.
struct Tally: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var label = ""
    var total = 0
  }

  enum Action: Equatable, Sendable {
    case refresh
    case loaded(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .refresh:
      state.count += 1
      state.label = "refreshing"
      return .run { send in
        await send(.loaded(1))
        await send(.loaded(2))
      }
    case let .loaded(amount):
      state.total += amount
      state.label = "done"
      return .none
    }
  }
}

extension Tally.Action: CasePathable {
  struct AllCasePaths {
    var refresh: AnyCasePath<Tally.Action, Void> {
      AnyCasePath<Tally.Action, Void>(
        embed: { Tally.Action.refresh },
        extract: {
          guard case .refresh = $0 else { return nil }
          return ()
        }
      )
    }
    var loaded: AnyCasePath<Tally.Action, Int> {
      AnyCasePath<Tally.Action, Int>(
        embed: Tally.Action.loaded,
        extract: {
          guard case let .loaded(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

@MainActor
final class TestStoreAPITests: XCTestCase {
  func testSendReturnsATestStoreTaskThatCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) {
      Timer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.start) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    XCTAssertFalse(task.isCancelled)
    await task.cancel()
    XCTAssertTrue(task.isCancelled)
  }

  func testTestStoreTaskFinishReportsAnEffectStillRunningAtTheCallersLine() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) {
      Timer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.start) { $0.isRunning = true }
    let line = #line + 2
    let issues = await expectIssues {
      await task.finish(timeout: .milliseconds(30))
    }
    XCTAssertEqual(
      issues.map(\.message),
      ["Expected the task to finish, but it was still running after 0.03 seconds."])
    XCTAssertEqual(issues.map(\.line), [UInt(line)])
    await task.cancel()
    await store.send(.load).finish()
    await store.receive(.loaded("hello")) { $0.message = "hello" }
  }

  func testSendAndReceiveByCaseKeyPath() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(\.refresh) {
      $0.count = 1
      $0.label = "refreshing"
    }
    await store.receive(\.loaded) {
      $0.total = 1
      $0.label = "done"
    }
    await store.receive(\.loaded, 2) { $0.total = 3 }
    await store.send(\.loaded, 4) { $0.total = 7 }
  }

  func testWithExhaustivityAssertsOnlyWhatTheTestAssertsAndRestores() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.withExhaustivity(.off) {
      await store.send(.refresh) { $0.count = 1 }
      await store.receive(.loaded(2)) { $0.total = 3 }
    }
    XCTAssertEqual(store.exhaustivity, .on)
    XCTAssertEqual(store.state, Tally.State(count: 1, label: "done", total: 3))
  }

  func testOffShowsSkippedAssertionsWithoutFailing() async {
    let collector = SkippedAssertions.Collector()
    let sendLine = #line + 6
    let receiveLine = #line + 6
    let (_, failures) = await withIssueCollection {
      await SkippedAssertions.$collector.withValue(collector) {
        let store = TestStore(initialState: Tally.State()) { Tally() }
        store.exhaustivity = .off(showSkippedAssertions: true)
        await store.send(.refresh) { $0.count = 1 }
        await store.receive(.loaded(2)) { $0.total = 3 }
        await store.finish()
      }
    }
    XCTAssertEqual(failures, [])
    XCTAssertEqual(collector.issues.map(\.line), [sendLine, receiveLine].map(UInt.init))
    XCTAssertEqual(
      collector.issues.map(\.message),
      [
        """
        Skipped assertions: …

        A state change does not match expectation:

          Tally.State(
            … (1 unchanged)
        -   label: "",
        +   label: "refreshing",
            … (1 unchanged)
          )

        (Expected: -, Actual: +)
        """,
        """
        Skipped assertions: …

        Skipped receiving 1 action:

          .loaded(1)
        """,
      ])
  }

  func testAFailureCarriesTheFileAndLineOfTheSend() async {
    let line = #line + 3
    let issues = await expectIssues {
      let store = TestStore(initialState: Tally.State()) { Tally() }
      await store.send(.refresh)
      store.exhaustivity = .off
    }
    XCTAssertEqual(issues.first?.line, UInt(line))
    XCTAssertEqual(issues.first?.staticFilePath.map { "\($0)" }, "\(#filePath)")
  }
}

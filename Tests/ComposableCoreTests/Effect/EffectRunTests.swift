import ComposableCore
import ComposableTesting
import XCTest

private struct Failing: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable {
    case fail
    case failHandled
    case escape
    case failed(String)
    case late
  }

  struct Boom: Error {}

  let escaped: Escaped

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fail:
      return .run { _ in throw Boom() }
    case .failHandled:
      return .run { _ in throw Boom() } catch: { error, send in
        await send(.failed("\(error)"))
      }
    case .escape:
      let escaped = self.escaped
      return .run { send in await escaped.keep(send) }
    case let .failed(text):
      state.log.append(text)
      return .none
    case .late:
      state.log.append("late")
      return .none
    }
  }
}

@MainActor
private final class Escaped: Sendable {
  var send: Send<Failing.Action>?
  func keep(_ send: Send<Failing.Action>) { self.send = send }
}

@MainActor
final class EffectRunTests: XCTestCase {
  func testUnhandledErrorIsReportedWithWhereTheEffectWasCreated() async {
    let store = Store(initialState: Failing.State()) { Failing(escaped: Escaped()) }
    let (_, issues) = await withIssueCollection {
      await store.send(.fail).finish()
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        An "Effect.run" returned from "ComposableCoreTests/EffectRunTests.swift:22" threw an \
        unhandled error:

            Boom()

        All errors that are not cancellations must be handled, with the "catch" parameter of \
        "Effect.run" or with a "do" block in its operation.
        """
      ]
    )
    XCTAssertEqual(issues.map(\.line), [22])
  }

  func testCatchHandlerReceivesTheError() async {
    let store = Store(initialState: Failing.State()) { Failing(escaped: Escaped()) }
    await store.send(.failHandled).finish()
    XCTAssertEqual(store.log, ["Boom()"])
  }

  func testSendAfterEffectCompletedIsReportedAndIgnored() async {
    let escaped = Escaped()
    let store = Store(initialState: Failing.State()) { Failing(escaped: escaped) }
    await store.send(.escape).finish()
    let (_, issues) = withIssueCollection {
      escaped.send?(.late)
    }
    XCTAssertEqual(store.log, [])
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        An action was sent from a completed effect returned from \
        "ComposableCoreTests/EffectRunTests.swift:29":

          Action:
            .late

        The action was ignored. Do not keep the "send" of an "Effect.run" after its operation \
        returns (for example in an unstructured "Task").
        """
      ]
    )
  }

  func testSendsFromEffectsAreNotReportedAsReentrant() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let (_, issues) = await withIssueCollection {
      await store.send(.load).finish()
    }
    XCTAssertEqual(issues, [])
    XCTAssertEqual(store.loaded, "ok")
  }

  func testStoreTaskFinishWaitsForEffectsStartedByEffectActions() async {
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        guard case let .step(name) = action else {
          return .run { send in await send(.step("1")) }
        }
        state.log.append(name)
        guard name.count < 3 else { return .none }
        return .run { send in
          try await Task.sleep(for: .milliseconds(5))
          await send(.step(name + "+"))
        }
      }
    }
    await store.send(.start).finish()
    XCTAssertEqual(store.log, ["1", "1+", "1++"])
  }
}

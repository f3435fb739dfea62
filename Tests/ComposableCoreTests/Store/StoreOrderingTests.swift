import ComposableCore
import ComposableTesting
import Observation
import XCTest

@MainActor
final class StoreOrderingTests: XCTestCase {
  func testSynchronousEffectsAreProcessedBreadthFirst() {
    let store = Store(initialState: Logger.State()) { Logger() }
    store.send(.fanOut)
    // fanOut sends b and c; b sends d, which waits behind c.
    XCTAssertEqual(store.log, ["fanOut", "b", "c", "d"])
  }

  func testReentrantSendIsBufferedAfterCurrentActionAndReported() {
    let holder = StoreHolder()
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        state.log.append(describeAction(action))
        if action == .start {
          holder.store?.send(.step("reentrant"))
          state.log.append("after send")
        }
        return .none
      }
    }
    holder.store = store
    let (_, issues) = withIssueCollection {
      store.send(.start)
    }
    XCTAssertEqual(store.log, ["start", "after send", "step(reentrant)"])
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        The store was sent the action .step("reentrant") while it was processing .start.

        Sending an action from inside a reducer (or from code a reducer calls) is not \
        supported: the action is queued and handled after the current one. Return \
        ".send(.step("reentrant"))" from the reducer instead.
        """
      ]
    )
  }

  /// A send from inside the reducer of an action that others wait behind in the batch (not
  /// the last one buffered) names that action too, and waits behind all of them.
  func testReentrantSendNamesAnActionWithOthersBehindIt() {
    let holder = StoreHolder()
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        state.log.append(describeAction(action))
        switch action {
        case .start:
          return .merge(.send(.step("1")), .send(.step("2")))
        case .step("1"):
          holder.store?.send(.step("x"))
          return .none
        default:
          return .none
        }
      }
    }
    holder.store = store
    let (_, issues) = withIssueCollection {
      store.send(.start)
    }
    XCTAssertEqual(store.log, ["start", "step(1)", "step(2)", "step(x)"])
    XCTAssertEqual(
      issues.map { String($0.message.prefix { $0 != "\n" }) },
      [#"The store was sent the action .step("x") while it was processing .step("1")."#])
  }

  /// A recorded batch: the sent action first, then its `.send`s and a re-entrant send in the
  /// order they came, each step with its own origin; the report names the action being reduced.
  func testInstrumentedBatchKeepsEachActionsOriginAndOrder() {
    let holder = StoreHolder()
    let transcript = Transcript()
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        state.log.append(describeAction(action))
        switch action {
        case .start:
          holder.store?.send(.step("reentrant"))
          return .send(.step("sent"))
        case .step("sent"):
          return .send(.step("last"))
        default:
          return .none
        }
      }
      .transcribed(into: transcript)
    }
    holder.store = store
    transcript.clear()
    let (_, issues) = withIssueCollection {
      store.send(.start)
    }
    XCTAssertEqual(store.log, ["start", "step(reentrant)", "step(sent)", "step(last)"])
    XCTAssertEqual(
      transcript.text,
      """
      step 1 from user: .start
      end of step 1
      step 2 from user: .step("reentrant")
      end of step 2
      step 3 from .send of step 1: .step("sent")
      end of step 3
      step 4 from .send of step 3: .step("last")
      end of step 4
      """
    )
    XCTAssertEqual(
      issues.map { String($0.message.prefix { $0 != "\n" }) },
      [#"The store was sent the action .step("reentrant") while it was processing .start."#])
    // The next batch starts from an empty buffer.
    transcript.clear()
    store.send(.step("again"))
    XCTAssertEqual(
      transcript.text,
      """
      step 5 from user: .step("again")
      end of step 5
      """
    )
  }

  func testObserversAreNotifiedOncePerBatchWithTheFinalState() {
    let store = Store(initialState: Logger.State()) { Logger() }
    let seen = Box<[[String]]>([])
    withObservationTracking {
      _ = store.log
    } onChange: {
      MainActor.assumeIsolated {
        seen.value.append(store.withState(\.log))
      }
    }
    store.send(.fanOut)
    XCTAssertEqual(seen.value, [["fanOut", "b", "c", "d"]])
  }

  func testMergeRunsChildrenConcurrently() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    await store.send(.mergeRuns).finish()
    XCTAssertEqual(store.log, ["second", "first"])
  }

  func testConcatenateRunsChildrenInOrder() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    await store.send(.concatenateRuns).finish()
    XCTAssertEqual(store.log, ["first", "second"])
  }

  func testLeadingSynchronousPartOfConcatenationHappensInTheBatch() {
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        state.log.append(describeAction(action))
        guard action == .start else { return .none }
        return .concatenate(.send(.step("a")), .send(.step("b")))
      }
    }
    store.send(.start)
    XCTAssertEqual(store.log, ["start", "step(a)", "step(b)"])
  }

  func testSendFromEffectRunsOnMainActorAndUpdatesState() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let task = store.send(.load)
    await task.finish()
    XCTAssertEqual(store.loaded, "ok")
  }
}

/// Lets a test reducer reach the store it runs in.
@MainActor
final class StoreHolder {
  var store: Store<Logger.State, Logger.Action>?
}

/// A mutable box for callbacks, on the main actor.
@MainActor
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

func describeAction(_ action: Logger.Action) -> String {
  switch action {
  case let .step(name): "step(\(name))"
  default: "\(action)"
  }
}

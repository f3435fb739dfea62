import ComposableCore
import ComposableTesting
import XCTest

@MainActor
final class CancellationTests: XCTestCase {
  private func makeStore(log: CancellationLog) -> Store<Logger.State, Logger.Action> {
    let store = Store(initialState: Logger.State()) { Logger() }
    (store.core as? RootCore<Logger>)?.observeCancellations { log.events.append($0) }
    return store
  }

  func testCancelByIDStopsEffectAndIgnoresItsLaterSend() async {
    let log = CancellationLog()
    let store = makeStore(log: log)
    let task = store.send(.longRunning)
    store.send(.stop)
    await task.finish()
    XCTAssertEqual(store.log, [])
    XCTAssertEqual(log.reasons, [.cancelEffect])
    XCTAssertEqual(log.events.first?.ids.map(\.description), ["long"])
    XCTAssertEqual(log.events.first?.effectIDs.count, 1)
  }

  func testCancelInFlightCancelsThePreviousEffect() async {
    let log = CancellationLog()
    let store = makeStore(log: log)
    let first = store.send(.longRunningInFlight)
    let second = store.send(.longRunningInFlight)
    await first.finish()
    XCTAssertEqual(log.reasons, [.cancelInFlight, .cancelInFlight])
    XCTAssertEqual(log.events.map(\.effectIDs.count), [0, 1])
    store.send(.stop)
    await second.finish()
    XCTAssertEqual(store.log, [])
  }

  func testSendAfterCancellationIsIgnored() async {
    let log = CancellationLog()
    let sent = Box<Send<Logger.Action>?>(nil)
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        switch action {
        case .longRunning:
          return .run { send in
            await MainActor.run { sent.value = send }
            try await Task.sleep(for: .seconds(1000))
          }
          .cancellable(id: "long")
        case .stop:
          return .cancel(id: "long")
        case let .step(name):
          state.log.append(name)
          return .none
        default:
          return .none
        }
      }
    }
    (store.core as? RootCore<Reduce<Logger.State, Logger.Action>>)?.observeCancellations {
      log.events.append($0)
    }
    let task = store.send(.longRunning)
    let captured = await eventually { sent.value != nil }
    XCTAssertTrue(captured)
    store.send(.stop)
    await task.finish()
    // The escaped send belongs to a cancelled effect: ignored.
    sent.value?(.step("late"))
    XCTAssertEqual(store.log, [])
    XCTAssertEqual(log.reasons, [.cancelEffect])
  }

  func testStoreTaskCancelCancelsItsEffects() async {
    let log = CancellationLog()
    let store = makeStore(log: log)
    let task = store.send(.longRunning)
    task.cancel()
    await task.finish()
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(log.reasons, [.storeTaskCancel])
    XCTAssertEqual(log.events.first?.ids.map(\.description), ["long"])
    XCTAssertEqual(store.log, [])
  }

  func testStoreDeinitCancelsEveryEffect() async {
    let log = CancellationLog()
    var store: Store<Logger.State, Logger.Action>? = makeStore(log: log)
    let task = store?.send(.longRunning)
    store = nil
    await task?.finish()
    XCTAssertEqual(log.reasons, [.storeDeinit])
    XCTAssertEqual(log.events.first?.ids.map(\.description), ["long"])
  }

  func testIfLetTeardownCancelsChildEffects() async {
    let log = CancellationLog()
    let store = Store(initialState: Parent.State()) { Parent() }
    (store.core as? RootCore<Parent>)?.observeCancellations { log.events.append($0) }
    store.send(.showDetail)
    let task = store.send(.detail(.load))
    store.send(.hideDetail)
    await task.finish()
    XCTAssertNil(store.detail)
    XCTAssertEqual(log.reasons, [.teardown(.ifLet)])
    XCTAssertEqual(
      log.events.first?.ids.map(\.description), ["ifLet(\\State.detail)"])
  }

  func testForEachElementsWithTheSameIDDoNotCancelEachOther() async {
    let log = CancellationLog()
    let store = Store(initialState: Parent.State()) { Parent() }
    (store.core as? RootCore<Parent>)?.observeCancellations { log.events.append($0) }
    store.send(.addRow(1))
    store.send(.addRow(2))
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    store.send(.rows(.element(id: 1, action: .stop)))
    await first.finish()
    XCTAssertEqual(log.reasons, [.cancelEffect])
    XCTAssertEqual(
      log.events.first?.ids.map(\.description), ["timer @ [forEach(\\State.rows)#1]"])
    XCTAssertEqual(log.events.first?.effectIDs.count, 1)

    let ticksBefore = store.rows[id: 2]?.ticks ?? 0
    let stillTicking = await eventually { (store.rows[id: 2]?.ticks ?? 0) > ticksBefore }
    XCTAssertTrue(stillTicking)

    store.send(.removeRow(2))
    await second.finish()
    XCTAssertEqual(log.reasons, [.cancelEffect, .teardown(.forEach)])
    XCTAssertEqual(log.events.last?.ids.map(\.description), ["forEach(\\State.rows)#2"])
    XCTAssertEqual(log.events.last?.effectIDs.count, 1)
  }

  func testChildActionForNilIfLetStateIsReported() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let (_, issues) = withIssueCollection {
      store.send(.detail(.plus))
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertEqual(issues.first?.fileID, "ComposableCoreTests/Features.swift")
    XCTAssertEqual(
      issues.first?.message,
      """
      An "ifLet" at "ComposableCoreTests/Features.swift:82" received a child action when \
      child state was "nil".

        Action:
          .detail(.plus)

      This usually means one of:

      • A parent reducer set child state to "nil" before this "ifLet" ran. Attach "ifLet" \
      to the parent so the child runs first.

      • An effect sent this action after child state became "nil". Its effects are \
      cancelled at that moment; an effect that was not started by the child must be \
      cancelled by hand.

      • The action was sent to a store while child state was "nil". Only send child \
      actions while the child is present.
      """
    )
  }

  func testActionForMissingForEachElementIsReported() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let (_, issues) = withIssueCollection {
      store.send(.rows(.element(id: 9, action: .tick)))
    }
    XCTAssertEqual(issues.map(\.line), [83])
    XCTAssertEqual(
      issues.first?.message.components(separatedBy: "\n").prefix(4).joined(separator: "\n"),
      """
      A "forEach" at "ComposableCoreTests/Features.swift:83" received an action for a \
      missing element.

        Action:
          .rows(.element(id: 9, action: .tick))
      """
    )
  }
}

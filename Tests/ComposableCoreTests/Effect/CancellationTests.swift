import ComposableCore
import ComposableTesting
import XCTest

@MainActor
final class CancellationTests: XCTestCase {
  private let transcript = Transcript()

  private func makeStore() -> Store<Logger.State, Logger.Action> {
    Store(initialState: Logger.State()) { Logger().transcribed(into: transcript) }
  }

  func testCancelByIDStopsEffectAndIgnoresItsLaterSend() async {
    let store = makeStore()
    let task = store.send(.longRunning)
    store.send(.stop)
    await task.finish()
    XCTAssertEqual(store.log, [])
    XCTAssertEqual(
      transcript.lines.suffix(3),
      ["step 2 from user: .stop", "  E1 cancelled in step 2: cancel(long)", "end of step 2"])
  }

  func testSendAfterCancellationIsIgnored() async {
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
      .transcribed(into: transcript)
    }
    let task = store.send(.longRunning)
    let captured = await eventually { sent.value != nil }
    XCTAssertTrue(captured)
    store.send(.stop)
    await task.finish()
    // The escaped send belongs to a cancelled effect: ignored.
    sent.value?(.step("late"))
    XCTAssertEqual(store.log, [])
    XCTAssertEqual(transcript.lines.last, "end of step 2")
  }

  func testStoreTaskCancelCancelsItsEffects() async {
    let store = makeStore()
    let task = store.send(.longRunning)
    task.cancel()
    await task.finish()
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(transcript.lines.last, "E1 cancelled: storeTask")
    XCTAssertEqual(store.log, [])
  }

  /// Cancelled off the main actor, the tasks are cancelled at once and the core hears of it
  /// when the main actor runs: the effect is reported cancelled by the store task, once.
  func testStoreTaskCancelledOffTheMainActorIsReportedOnce() async {
    let store = makeStore()
    let task = store.send(.longRunning)
    await Task.detached { task.cancel() }.value
    await task.finish()
    let reported = await eventually { transcript.lines.last == "E1 cancelled: storeTask" }
    XCTAssertTrue(reported, transcript.text)
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(transcript.lines.filter { $0.contains("E1 cancelled") }.count, 1)
    XCTAssertEqual(store.log, [])
  }

  /// A store task held after its store went away: its effects ended with the store, and
  /// cancelling it then reaches no store and reports nothing more.
  func testAStoreTaskThatOutlivesItsStoreCancelsNothingMore() async {
    var store: Store<Logger.State, Logger.Action>? = makeStore()
    let task = store!.send(.longRunning)
    store = nil
    await task.finish()
    XCTAssertEqual(transcript.lines.last, "E1 cancelled: storeTeardown")
    let lines = transcript.lines
    task.cancel()
    await Task.detached { task.cancel() }.value
    await Task.yield()
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(transcript.lines, lines)
  }

  func testForEachElementsWithTheSameIDDoNotCancelEachOther() async {
    let transcript = Transcript()
    let store = Store(initialState: Parent.State()) { Parent().transcribed(into: transcript) }
    store.send(.addRow(1))
    store.send(.addRow(2))
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    store.send(.rows(.element(id: 1, action: .stop)))
    await first.finish()
    XCTAssertTrue(
      transcript.lines.contains("  E1 cancelled in step 5: cancel(timer @ [forEach(rows)#1])"),
      transcript.text)

    let ticksBefore = store.rows[id: 2]?.ticks ?? 0
    let stillTicking = await eventually { (store.rows[id: 2]?.ticks ?? 0) > ticksBefore }
    XCTAssertTrue(stillTicking)

    store.send(.removeRow(2))
    await second.finish()
    let cancellations = transcript.lines.filter { $0.contains("cancelled") }
    XCTAssertEqual(cancellations.count, 2, transcript.text)
    XCTAssertTrue(
      cancellations.last?.hasPrefix("  E2 cancelled in step ") == true
        && cancellations.last?.hasSuffix(": teardown(forEach)") == true,
      transcript.text)
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

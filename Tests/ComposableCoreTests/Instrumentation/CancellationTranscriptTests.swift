import ComposableCore
import ComposableTesting
import XCTest

/// Every way the core cancels an effect, as its instrument is told: which effects, why, and in
/// which step.
@MainActor
final class CancellationTranscriptTests: XCTestCase {
  private let log = EventLog()
  private let transcript = Transcript()

  private func makeStore() -> Store<Navigation.State, Navigation.Action> {
    Store(initialState: Navigation.State()) {
      Navigation(log: log).transcribed(into: transcript)
    }
  }

  /// Waits until the effects logged that they started (their cancellation handlers are then
  /// installed, so a cancellation runs them at once).
  private func waitUntilStarted(_ names: String...) async {
    let started = await eventually { names.allSatisfy { self.log.events.contains($0) } }
    XCTAssertTrue(started, "\(names) did not start: \(log.events)")
  }

  func testCancelByIDTakesEffectInTheStepThatAskedForIt() async {
    let store = makeStore()
    store.send(.addRow(1))
    let task = store.send(.rows(.element(id: 1, action: .start)))
    await waitUntilStarted("row 1 started")
    transcript.clear()
    store.send(.rows(.element(id: 1, action: .stop)))
    await task.finish()
    XCTAssertEqual(
      transcript.text,
      """
      step 3 from user: .rows(.element(id: 1, action: .stop))
        E1 cancelled in step 3: cancel(timer @ [forEach(rows)#1])
      end of step 3
      """)
  }

  func testCancelInFlightIsReportedWhenTheNewEffectStarts() async {
    let transcript = Transcript()
    let store = Store(initialState: Logger.State()) { Logger().transcribed(into: transcript) }
    let first = store.send(.longRunningInFlight)
    store.send(.longRunningInFlight)
    store.send(.stop)
    await first.finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .longRunningInFlight
      end of step 1
      E1 started by step 1: run [long]
      step 2 from user: .longRunningInFlight
      end of step 2
      E1 cancelled in step 2: cancelInFlight(long)
      E2 started by step 2: run [long]
      step 3 from user: .stop
        E2 cancelled in step 3: cancel(long)
      end of step 3
      """)
  }

  /// Two instruments on one store (the core tells both every fact) each hear an effect's
  /// launch whole, its cancellation ids included: each is handed a copy of what the core
  /// reported.
  func testEveryInstrumentOfAStoreHearsEachEffectWhole() async {
    let first = Transcript()
    let second = Transcript()
    let store = Store(initialState: Logger.State()) {
      Logger().transcribed(into: first).transcribed(into: second)
    }
    let task = store.send(.longRunningInFlight)
    store.send(.stop)
    await task.finish()
    let expected = """
      store started
      step 1 from user: .longRunningInFlight
      end of step 1
      E1 started by step 1: run [long]
      step 2 from user: .stop
        E1 cancelled in step 2: cancel(long)
      end of step 2
      """
    XCTAssertEqual(first.text, expected)
    XCTAssertEqual(second.text, expected)
  }

  func testChildTeardownsAreReportedInTheStepThatRemovedTheChild() async {
    let store = makeStore()
    store.send(.showDetail)
    store.send(.addRow(1))
    store.send(.present)
    let tasks = [
      store.send(.detail(.start)),
      store.send(.rows(.element(id: 1, action: .start))),
      store.send(.sheet(.presented(.start))),
    ]
    await waitUntilStarted("detail 0 started", "row 1 started", "sheet 0 started")
    store.send(.hideDetail)
    store.send(.removeRow(1))
    store.send(.sheet(.dismiss))
    for task in tasks { await task.finish() }
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .showDetail
      end of step 1
      step 2 from user: .addRow(1)
      end of step 2
      step 3 from user: .present
      end of step 3
      step 4 from user: .detail(.start)
      end of step 4
      E1 started by step 4: run [ifLet(detail), timer @ [ifLet(detail)]]
      step 5 from user: .rows(.element(id: 1, action: .start))
      end of step 5
      E2 started by step 5: run [forEach(rows)#1, timer @ [forEach(rows)#1]]
      step 6 from user: .sheet(.presented(.start))
      end of step 6
      E3 started by step 6: run [presentation(sheet), timer @ [presentation(sheet)]]
      step 7 from user: .hideDetail
        E1 cancelled in step 7: teardown(ifLet)
      end of step 7
      step 8 from user: .removeRow(1)
        E2 cancelled in step 8: teardown(forEach)
      end of step 8
      step 9 from user: .sheet(.dismiss)
        E3 cancelled in step 9: teardown(presentation)
      end of step 9
      """)
  }

  func testStoreTaskCancelIsReportedWithoutAStep() async {
    let store = makeStore()
    store.send(.addRow(1))
    let task = store.send(.rows(.element(id: 1, action: .start)))
    await waitUntilStarted("row 1 started")
    transcript.clear()
    task.cancel()
    await task.finish()
    XCTAssertEqual(transcript.text, "E1 cancelled: storeTask")
    XCTAssertEqual(log.events, ["row 1 started", "row 1 onCancel"])
  }

  func testTheStoreGoingAwayIsReportedWithoutAStep() async {
    var store: Store<Navigation.State, Navigation.Action>? = makeStore()
    store?.send(.addRow(1))
    store?.send(.addRow(2))
    let tasks = [1, 2].compactMap { store?.send(.rows(.element(id: $0, action: .start))) }
    await waitUntilStarted("row 1 started", "row 2 started")
    transcript.clear()
    store = nil
    for task in tasks { await task.finish() }
    XCTAssertEqual(transcript.text, "E1, E2 cancelled: storeTeardown")
  }

  func testATestStoreSkippingEffectsIsReportedWithoutAStep() async {
    let store = TestStore(initialState: Navigation.State()) {
      Navigation(log: log).transcribed(into: transcript)
    }
    await store.send(.addRow(1)) { $0.rows = [Sleeper.State(id: 1)] }
    await store.send(.rows(.element(id: 1, action: .start)))
    store.skipInFlightEffects()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .addRow(1)
      end of step 1
      step 2 from user: .rows(.element(id: 1, action: .start))
      end of step 2
      E1 started by step 2: run [forEach(rows)#1, timer @ [forEach(rows)#1]]
      E1 cancelled: testSkip
      """)
  }

  func testAnEffectThatEndsItselfIsReportedFinished() async {
    let transcript = Transcript()
    let store = Store(initialState: Counter.State()) { Counter().transcribed(into: transcript) }
    await store.send(.load).finish()
    XCTAssertEqual(transcript.lines.last, "E1 finished")
  }
}

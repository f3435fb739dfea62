import ComposableCore
import Locking
import Synchronization
import XCTest

/// A store whose state holds an object that logs when it is destroyed, and whose effect logs
/// when it is cancelled.
private struct Holding: Reducer {
  final class Tracker: Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    deinit { log.append("state destroyed") }
  }

  struct State: Sendable {
    var tracker: Tracker
  }

  enum Action: Sendable { case start }

  let log: EventLog

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let log = self.log
    return .run { _ in
      await withTaskCancellationHandler {
        log.append("effect started")
        try? await Task.sleep(for: .seconds(1000))
      } onCancel: {
        log.append("effect cancelled")
      }
    }
  }
}

/// How many sends had returned, and what each `.run` body saw when it began.
private final class SendWitness: Sendable {
  let returnedSends = Atomic<Int>(0)
  let seen = Lock<[Int]>([])
}

/// A `.run` whose first line records how many sends had returned when it began; a second
/// action of the same batch keeps the main actor busy meanwhile.
private struct FirstLine: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case start, busy }

  let witness: SendWitness

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      let witness = self.witness
      return .merge(
        .run { _ in
          let returned = witness.returnedSends.load(ordering: .acquiring)
          witness.seen.withLock { $0.append(returned) }
        },
        .send(.busy)
      )
    case .busy:
      // Busy (not sleeping) for 50 µs: a body started off the main actor would run now.
      let end = ContinuousClock.now.advanced(by: .microseconds(50))
      while ContinuousClock.now < end {}
      return .none
    }
  }
}

/// The effects a reducer returned (written on the main actor by the store's reducer).
private final class ReturnedEffects: @unchecked Sendable {
  var effects: [Effect<Logger.Action>] = []
}

/// Issue 11, items 1–7: where the core behaves as upstream's store does.
@MainActor
final class UpstreamSemanticsTests: XCTestCase {
  func testAParentCancelReachesEveryChildEffectWithThatIDButARowOnlyItsOwn() async {
    let log = EventLog()
    let transcript = Transcript()
    let store = Store(initialState: Navigation.State()) {
      Navigation(log: log).transcribed(into: transcript)
    }
    store.send(.addRow(1))
    store.send(.addRow(2))
    store.send(.present)
    let tasks = [
      store.send(.rows(.element(id: 1, action: .start))),
      store.send(.rows(.element(id: 2, action: .start))),
      store.send(.sheet(.presented(.start))),
    ]
    let started = await eventually {
      ["row 1 started", "row 2 started", "sheet 0 started"].allSatisfy(log.events.contains)
    }
    XCTAssertTrue(started)
    transcript.clear()
    store.send(.rows(.element(id: 1, action: .stop)))
    store.send(.stopAll)
    for task in tasks { await task.finish() }
    XCTAssertEqual(
      transcript.text,
      """
      step 7 from user: .rows(.element(id: 1, action: .stop))
        E1 cancelled in step 7: cancel(timer @ [forEach(rows)#1])
      end of step 7
      step 8 from user: .stopAll
        E2, E3 cancelled in step 8: cancel(timer)
      end of step 8
      """)
  }

  func testAChildCancelTakesEffectBeforeTheParentReducerSeesTheAction() async {
    let log = EventLog()
    let store = Store(initialState: Navigation.State()) { Navigation(log: log) }
    store.send(.addRow(1))
    let task = store.send(.rows(.element(id: 1, action: .start)))
    let started = await eventually { log.events.contains("row 1 started") }
    XCTAssertTrue(started)
    store.send(.rows(.element(id: 1, action: .stop)))
    await task.finish()
    XCTAssertEqual(
      log.events, ["row 1 started", "row 1 onCancel", "parent sees row 1 stop"])
  }

  func testTheCancellationStaysInTheReturnedEffect() async {
    let returned = ReturnedEffects()
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { state, action in
        guard action == .stop else { return Logger().reduce(into: &state, action: action) }
        let effect = Effect<Logger.Action>.cancel(id: "long")
        returned.effects.append(effect)
        return effect
      }
    }
    let task = store.send(.longRunning)
    store.send(.stop)
    await task.finish()
    // Created outside a store, it cancels nothing yet; either way it says what it cancels.
    returned.effects.append(.cancel(id: "long"))
    let described = returned.effects.map { effect -> String in
      guard case let .cancel(id, reason, isPerformed) = effect.node else { return "?" }
      return "\(id) \(reason) performed: \(isPerformed)"
    }
    XCTAssertEqual(
      described, ["long cancelEffect performed: true", "long cancelEffect performed: false"])
  }

  func testARunEffectNeverStartsBeforeTheSendThatStartedItReturned() async {
    let witness = SendWitness()
    let store = Store(initialState: FirstLine.State()) { FirstLine(witness: witness) }
    var tasks: [StoreTask] = []
    for _ in 0..<200 {
      tasks.append(store.send(.start))
      witness.returnedSends.add(1, ordering: .releasing)
    }
    for task in tasks { await task.finish() }
    // The bodies run in any order, so each one's bound is known only in sorted order: the
    // k-th body to begin saw at least k sends returned, its own included.
    let seen = witness.seen.withLock { $0 }.sorted()
    XCTAssertEqual(seen.count, 200)
    for (index, returned) in seen.enumerated() where returned <= index {
      XCTFail("a body began when only \(returned) sends had returned (at least \(index + 1))")
      break
    }
  }

  func testDismissRunsTheParentWithTheChildPresentThenRemovesItAndCancels() async {
    let log = EventLog()
    let store = Store(initialState: Navigation.State()) { Navigation(log: log) }
    store.send(.present)
    let task = store.send(.sheet(.presented(.start)))
    let started = await eventually { log.events.contains("sheet 0 started") }
    XCTAssertTrue(started)
    store.send(.sheet(.dismiss))
    await task.finish()
    XCTAssertNil(store.sheet)
    XCTAssertEqual(
      log.events,
      ["sheet 0 started", "parent sees dismiss, sheet present: true", "sheet 0 onCancel"])
  }

  func testDroppingAStoreDestroysItsStateThenCancelsItsEffectsEveryTime() async {
    for round in 1...20 {
      let log = EventLog()
      var store: Store<Holding.State, Holding.Action>? = Store(
        initialState: Holding.State(tracker: Holding.Tracker(log: log))
      ) { Holding(log: log) }
      let task = store?.send(.start)
      let started = await eventually { log.events.contains("effect started") }
      XCTAssertTrue(started)
      store = nil
      await task?.finish()
      XCTAssertEqual(
        log.events, ["effect started", "state destroyed", "effect cancelled"], "round \(round)")
    }
  }

  func testAStoreTaskWithNoAsynchronousWorkIsCancelled() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    XCTAssertTrue(store.send(.plus).isCancelled)
    let load = store.send(.load)
    XCTAssertFalse(load.isCancelled)
    await load.finish()
    XCTAssertFalse(load.isCancelled, "finished, not cancelled")
    load.cancel()
    XCTAssertTrue(load.isCancelled)
  }

  func testUntypedOptionalScopeIsAStoreOfOptionalState() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let untyped = store.scope(state: \.detail, action: .detail)
    XCTAssertTrue(type(of: untyped) == Store<Counter.State?, Counter.Action>.self)
    let annotated: Store<Counter.State, Counter.Action>? = store.scope(
      state: \.detail, action: .detail)
    XCTAssertNil(annotated)
    store.send(.showDetail)
    let present: Store<Counter.State, Counter.Action>? = store.scope(
      state: \.detail, action: .detail)
    XCTAssertEqual(present?.count, 0)
  }
}

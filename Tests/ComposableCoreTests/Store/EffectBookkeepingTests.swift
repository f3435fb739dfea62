import ComposableCore
import ComposableTesting
import Synchronization
import XCTest

/// A sheet presented by a row: `poll` ticks every second until cancelled, `close` dismisses it
/// from its own effect.
private struct RowSheet: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case poll, tick, close
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .poll:
      let clock = self.clock
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "poll")
    case .tick:
      state.ticks += 1
      return .none
    case .close:
      let dismiss = self.dismiss
      return .run { _ in await dismiss() }
    }
  }
}

/// A row of the board: presents a sheet, cancels "poll" at its own level (reaching its sheet's
/// poll, not another row's), and saves its edits debounced.
private struct BoardRow: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    @PresentationState var sheet: RowSheet.State?
    var saves: [String] = []
  }

  enum Action: Equatable, Sendable {
    case open, stopPolls
    case edit(String), saved(String)
    case twoSaves
    case sheet(PresentationAction<RowSheet.Action>)
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open:
        state.sheet = RowSheet.State()
        return .none
      case .stopPolls:
        return .cancel(id: "poll")
      case let .edit(text):
        return .run { send in await send(.saved(text)) }
          .debounce(id: "save", for: .seconds(1), clock: clock)
      case let .saved(text):
        state.saves.append(text)
        return .none
      case .twoSaves:
        // Two effects under one key, and one effect under the same id twice.
        let clock = self.clock
        return .merge(
          .run { send in
            try await clock.sleep(for: .seconds(5))
            await send(.saved("first"))
          }
          .cancellable(id: "save")
          .cancellable(id: "save"),
          .run { send in
            try await clock.sleep(for: .seconds(5))
            await send(.saved("second"))
          }
          .cancellable(id: "save")
        )
      case .sheet:
        return .none
      }
    }
    .ifLet(\.$sheet, action: .boardRowSheet) { RowSheet() }
  }
}

/// Rows in `forEach`: a sheet's effect sits two navigation steps deep.
private struct PollBoard: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<BoardRow.State> = [BoardRow.State(id: 1), BoardRow.State(id: 2)]
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, BoardRow.Action>)
    case cancelSaves
  }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .cancelSaves:
        // At the root: reaches every row's "save".
        return .cancel(id: "save")
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: .boardRows) { BoardRow() }
  }
}

extension AnyCasePath where Root == BoardRow.Action, Value == PresentationAction<RowSheet.Action> {
  fileprivate static var boardRowSheet: Self {
    .init(Root.sheet) { if case let .sheet(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == PollBoard.Action, Value == IdentifiedAction<Int, BoardRow.Action> {
  fileprivate static var boardRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

/// A value an effect's operation or its action holds: logs when it is destroyed. Equal only
/// to itself.
private final class Held: Sendable, Equatable {
  let log: EventLog
  let name: String

  init(log: EventLog, name: String) {
    self.log = log
    self.name = name
  }

  deinit { log.append("\(name) released") }

  static func == (lhs: Held, rhs: Held) -> Bool { lhs === rhs }
}

/// Effects that hold a `Held` until they end: `finish` returns at once, `sleep` sleeps until
/// `stop` cancels it; `wait` carries one in its action only, and sleeps until `stop`.
private struct Holder: Reducer {
  struct State: Equatable, Sendable {}

  enum Action: Equatable, Sendable {
    case finish, sleep, stop
    case wait(Held)
  }

  let log: EventLog

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .finish:
      let held = Held(log: log, name: "finished")
      return .run { _ in held.log.append("finished ran") }
    case .sleep:
      let held = Held(log: log, name: "cancelled")
      return .run { _ in
        held.log.append("cancelled ran")
        try await Task.sleep(for: .seconds(1000))
      }
      .cancellable(id: "sleep")
    case .wait:
      let log = self.log
      return .run { _ in
        log.append("wait ran")
        try await Task.sleep(for: .seconds(1000))
      }
      .cancellable(id: "sleep")
    case .stop:
      return .cancel(id: "sleep")
    }
  }
}

/// A child that saves after a quiet second (a debounce: a concatenation of a wait and the
/// save, cancelled in flight by the next edit), scoped into a parent: the effect trees the
/// scope maps are what the tasks of the saves hold.
private struct SavingChild: Reducer {
  struct State: Equatable, Sendable {}

  enum Action: Equatable, Sendable {
    case edit(String)
  }

  let log: EventLog

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .edit(name):
      let held = Held(log: log, name: name)
      return .run { _ in held.log.append("\(held.name) saved") }
        .debounce(id: "save", for: .seconds(1), clock: ContinuousClock())
    }
  }
}

private struct SavingParent: Reducer {
  struct State: Equatable, Sendable {
    var child = SavingChild.State()
  }

  enum Action: Equatable, Sendable {
    case child(SavingChild.Action)
  }

  let log: EventLog

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: AnyCasePath(Action.child) {
      if case let .child(action) = $0 { action } else { nil }
    }) {
      SavingChild(log: log)
    }
  }
}

/// Named effects that sleep until stopped: `start(name)` starts one cancellable by its name,
/// `stop(name)` cancels it.
private struct NamedSleepers: Reducer {
  struct State: Equatable, Sendable {}

  enum Action: Equatable, Sendable {
    case start(String)
    case stop(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(name):
      return .run { _ in try await Task.sleep(for: .seconds(1000)) }
        .cancellable(id: name)
    case let .stop(name):
      return .cancel(id: name)
    }
  }
}

/// The core's effect bookkeeping (registration under every prefix of the navigation path,
/// cancellation by id and in flight, teardown) on a feature the fixtures do not have: sheets
/// presented by `forEach` rows, debounced saves per row. Each scenario runs on a bare store
/// (asserting the state) and on an instrumented one (asserting what its instrument was told).
@MainActor
final class EffectBookkeepingTests: XCTestCase {
  private func row(_ id: Int, _ action: BoardRow.Action) -> PollBoard.Action {
    .rows(.element(id: id, action: action))
  }

  private func sheet(_ id: Int, _ action: RowSheet.Action) -> PollBoard.Action {
    row(id, .sheet(.presented(action)))
  }

  private func makeStore(_ clock: TestClock, transcript: Transcript?) -> StoreOf<PollBoard> {
    if let transcript {
      return Store(initialState: PollBoard.State()) {
        PollBoard().transcribed(into: transcript)
      } withDependencies: {
        $0.continuousClock = clock
      }
    }
    return Store(initialState: PollBoard.State()) {
      PollBoard()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  /// Lets the effects started so far reach their first sleep.
  private func settle(_ clock: TestClock, sleepers: Int) async {
    await clock.waitForSleepers(sleepers)
  }

  private func cancelByIDUnderNestedNavigation(
    transcript: Transcript?
  ) async -> StoreOf<PollBoard> {
    let clock = TestClock()
    let store = makeStore(clock, transcript: transcript)
    store.send(row(1, .open))
    store.send(row(2, .open))
    store.send(sheet(1, .poll))
    store.send(sheet(2, .poll))
    await store.waitForIdleEffects(on: clock)
    await clock.advance(by: .seconds(1))
    await store.waitForIdleEffects(on: clock)
    store.send(row(1, .stopPolls))
    await store.waitForIdleEffects(on: clock)
    // A second at a time, each tick waited for: in one advance of two seconds, the woken
    // poll had to sleep again before the advance's own settling gave up on it, which a
    // loaded machine did not always let it do (2 ticks instead of 3).
    for _ in 1...2 {
      await clock.advance(by: .seconds(1))
      await store.waitForIdleEffects(on: clock)
    }
    XCTAssertEqual(clock.sleeperCount, 1)
    return store
  }

  func testARowsCancelByIDReachesItsSheetsEffectAndNotAnotherRows() async {
    let store = await cancelByIDUnderNestedNavigation(transcript: nil)
    XCTAssertEqual(store.state.rows[id: 1]?.sheet, RowSheet.State(ticks: 1))
    XCTAssertEqual(store.state.rows[id: 2]?.sheet, RowSheet.State(ticks: 3))
  }

  func testARowsCancelByIDUnderNestedNavigationAsTheInstrumentIsTold() async {
    let transcript = Transcript()
    let store = await cancelByIDUnderNestedNavigation(transcript: transcript)
    XCTAssertEqual(store.state.rows[id: 2]?.sheet, RowSheet.State(ticks: 3))
    XCTAssertEqual(
      transcript.lines.filter { !$0.hasPrefix("step") && !$0.hasPrefix("end") },
      [
        "store started",
        "E1 started by step 3: run [forEach(rows)#1, presentation(sheet) @ [forEach(rows)#1], "
          + "poll @ [forEach(rows)#1, presentation(sheet)]]",
        "E2 started by step 4: run [forEach(rows)#2, presentation(sheet) @ [forEach(rows)#2], "
          + "poll @ [forEach(rows)#2, presentation(sheet)]]",
        "  E1 cancelled in step 7: cancel(poll @ [forEach(rows)#1])",
      ])
  }

  private func debounceResent(transcript: Transcript?) async -> StoreOf<PollBoard> {
    let clock = TestClock()
    let store = makeStore(clock, transcript: transcript)
    store.send(row(1, .edit("a")))
    store.send(row(2, .edit("x")))
    store.send(row(1, .edit("ab")))
    await settle(clock, sleepers: 2)
    await clock.advance(by: .milliseconds(900))
    store.send(row(1, .edit("abc")))
    await settle(clock, sleepers: 2)
    await clock.advance(by: .milliseconds(100))
    _ = await eventually { store.state.rows[id: 2]?.saves == ["x"] }
    await clock.advance(by: .milliseconds(900))
    _ = await eventually { store.state.rows[id: 1]?.saves == ["abc"] }
    return store
  }

  func testADebounceResentCancelsOnlyItsOwnRowsPendingSave() async {
    let store = await debounceResent(transcript: nil)
    XCTAssertEqual(store.state.rows[id: 1]?.saves, ["abc"])
    XCTAssertEqual(store.state.rows[id: 2]?.saves, ["x"])
  }

  func testADebounceResentAsTheInstrumentIsTold() async {
    let transcript = Transcript()
    _ = await debounceResent(transcript: transcript)
    let row1Save = "[forEach(rows)#1, save @ [forEach(rows)#1]]"
    XCTAssertEqual(
      transcript.lines.filter { $0.contains("cancelled") || $0.contains("concatenation") },
      [
        // E4 and E5 are the waits E2 and E3 run first (started by their tasks).
        "E1 started by step 1: concatenation \(row1Save)",
        "E2 started by step 2: concatenation [forEach(rows)#2, save @ [forEach(rows)#2]]",
        "E1 cancelled in step 3: cancelInFlight(save @ [forEach(rows)#1])",
        "E3 started by step 3: concatenation \(row1Save)",
        "E3, E5 cancelled in step 4: cancelInFlight(save @ [forEach(rows)#1])",
        "E6 started by step 4: concatenation \(row1Save)",
      ])
  }

  private func dismissWhileRunning(
    transcript: Transcript?, byChild: Bool
  ) async -> StoreOf<PollBoard> {
    let clock = TestClock()
    let store = makeStore(clock, transcript: transcript)
    store.send(row(1, .open))
    store.send(sheet(1, .poll))
    await settle(clock, sleepers: 1)
    await clock.advance(by: .seconds(1))
    await settle(clock, sleepers: 1)
    if byChild {
      await store.send(sheet(1, .close)).finish()
    } else {
      store.send(row(1, .sheet(.dismiss)))
    }
    // Opened again: a poll that outlived the dismissal would tick into the new sheet.
    store.send(row(1, .open))
    await clock.advance(by: .seconds(3))
    return store
  }

  func testDismissingAPresentedChildWhileItsEffectRunsCancelsTheEffect() async {
    for byChild in [false, true] {
      let store = await dismissWhileRunning(transcript: nil, byChild: byChild)
      XCTAssertEqual(
        store.state.rows[id: 1]?.sheet, RowSheet.State(ticks: 0), "by child: \(byChild)")
    }
  }

  func testDismissingAPresentedChildWhileItsEffectRunsAsTheInstrumentIsTold() async {
    let transcript = Transcript()
    _ = await dismissWhileRunning(transcript: transcript, byChild: false)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .rows(.element(id: 1, action: .open))
      end of step 1
      step 2 from user: .rows(.element(id: 1, action: .sheet(.presented(.poll))))
      end of step 2
      E1 started by step 2: run [forEach(rows)#1, presentation(sheet) @ [forEach(rows)#1], \
      poll @ [forEach(rows)#1, presentation(sheet)]]
      step 3 from E1: .rows(.element(id: 1, action: .sheet(.presented(.tick))))
      end of step 3
      step 4 from user: .rows(.element(id: 1, action: .sheet(.dismiss)))
        E1 cancelled in step 4: teardown(presentation)
      end of step 4
      step 5 from user: .rows(.element(id: 1, action: .open))
      end of step 5
      """)
  }

  func testAChildDismissingItselfFromItsEffectEndsItsOtherEffectAsTheInstrumentIsTold() async {
    let transcript = Transcript()
    _ = await dismissWhileRunning(transcript: transcript, byChild: true)
    XCTAssertEqual(
      Array(transcript.lines.dropFirst(8)),
      [
        "step 4 from user: .rows(.element(id: 1, action: .sheet(.presented(.close))))",
        "end of step 4",
        "E2 started by step 4: run [forEach(rows)#1, presentation(sheet) @ [forEach(rows)#1]]",
        "step 5 from E2: .rows(.element(id: 1, action: .sheet(.dismiss)))",
        "  E1, E2 cancelled in step 5: teardown(presentation)",
        "end of step 5",
        "step 6 from user: .rows(.element(id: 1, action: .open))",
        "end of step 6",
      ])
  }

  /// E1 is registered once under its id given twice; E4 is the wait E3 started first.
  func testEffectsSharingAKeyAreCancelledTogetherFromTheRootInTheOrderTheyStarted() async {
    let transcript = Transcript()
    let clock = TestClock()
    let store = makeStore(clock, transcript: transcript)
    store.send(row(1, .twoSaves))
    store.send(row(2, .edit("x")))
    await settle(clock, sleepers: 3)
    transcript.clear()
    store.send(.cancelSaves)
    await clock.advance(by: .seconds(10))
    XCTAssertEqual(store.state.rows[id: 1]?.saves, [])
    XCTAssertEqual(store.state.rows[id: 2]?.saves, [])
    XCTAssertEqual(
      transcript.text,
      """
      step 3 from user: .cancelSaves
        E1, E2, E3, E4 cancelled in step 3: cancel(save)
      end of step 3
      """)
  }

  func testEffectsSharingAKeyOnABareStoreAreCancelledTogether() async {
    let clock = TestClock()
    let store = makeStore(clock, transcript: nil)
    store.send(row(1, .twoSaves))
    store.send(row(2, .edit("x")))
    await settle(clock, sleepers: 3)
    store.send(row(1, .stopPolls))
    store.send(.cancelSaves)
    await clock.advance(by: .seconds(10))
    XCTAssertEqual(store.state.rows[id: 1]?.saves, [])
    XCTAssertEqual(store.state.rows[id: 2]?.saves, [])
    // Registered again after the cancellation: the key's list was emptied, not left behind.
    store.send(row(1, .edit("again")))
    await settle(clock, sleepers: 1)
    await clock.advance(by: .seconds(1))
    _ = await eventually { store.state.rows[id: 1]?.saves == ["again"] }
    XCTAssertEqual(store.state.rows[id: 1]?.saves, ["again"])
  }

  /// The store's record of a running effect and the effect's task refer to each other until
  /// the task ends: what the operation holds is let go of once it finished, or once it was
  /// cancelled, and the store runs no effect then.
  func testAnEffectThatEndedLetsGoOfWhatItsOperationHeld() async throws {
    let log = EventLog()
    let store = Store(initialState: Holder.State()) { Holder(log: log) }
    await store.send(.finish).finish()
    let finished = await eventually { log.events.contains("finished released") }
    XCTAssertTrue(finished)
    XCTAssertEqual(log.events, ["finished ran", "finished released"])

    let sleeping = store.send(.sleep)
    let started = await eventually { log.events.contains("cancelled ran") }
    XCTAssertTrue(started)
    store.send(.stop)
    await sleeping.finish()
    let cancelled = await eventually { log.events.contains("cancelled released") }
    XCTAssertTrue(cancelled)
    XCTAssertEqual(
      log.events, ["finished ran", "finished released", "cancelled ran", "cancelled released"])
    let core = try XCTUnwrap(store.core as? RootCore<Holder>)
    XCTAssertTrue(core.effectsInFlight.isEmpty)
  }

  /// An effect cancelled before its task ran lets go of the action that started it at once,
  /// not when its task gets to run (the task holds the store's record of it until then).
  func testAnEffectCancelledBeforeItsTaskRanLetsGoOfItsActionAtOnce() async {
    let log = EventLog()
    let store = Store(initialState: Holder.State()) { Holder(log: log) }
    var task: StoreTask?
    do {
      let held = Held(log: log, name: "action")
      task = store.send(.wait(held))
    }
    XCTAssertEqual(log.events, [])
    store.send(.stop)
    // Nothing awaited since the send: the effect's task has not run.
    XCTAssertEqual(log.events, ["action released"])
    // A task cancelled before it started still runs its operation, as upstream, which stops
    // at its first suspension point.
    await task?.finish()
    XCTAssertEqual(log.events, ["action released", "wait ran"])
  }

  /// The effects in flight are listed in the order they started, whatever ended in between.
  func testEffectsInFlightAreListedInTheOrderTheyStarted() throws {
    let store = Store(initialState: NamedSleepers.State()) { NamedSleepers() }
    for name in ["a", "b", "c", "d"] {
      store.send(.start(name))
    }
    store.send(.stop("b"))
    let core = try XCTUnwrap(store.core as? RootCore<NamedSleepers>)
    XCTAssertEqual(core.effectsInFlight.map(\.action), [.start("a"), .start("c"), .start("d")])
    XCTAssertEqual(core.pendingOperationCount, 3)
    store.send(.stop("a"))
    store.send(.start("e"))
    store.send(.stop("e"))
    store.send(.start("f"))
    XCTAssertEqual(core.effectsInFlight.map(\.action), [.start("c"), .start("d"), .start("f")])
    XCTAssertEqual(core.pendingOperationCount, 3)
  }

  /// Scoped debounced saves, each cancelled by the next edit before its task ran, the last
  /// one by the store's end: once their tasks run (each sees its cancellation and returns),
  /// nothing is left of them. A process that never runs the main actor's queue (a synchronous
  /// `main` without a run loop) keeps them queued with all they hold; that is the queue's hold,
  /// not the store's.
  func testScopedEffectsCancelledBeforeTheirTasksRanAreFreedWhenTheTasksRun() async {
    let log = EventLog()
    weak var core: RootCore<SavingParent>?
    var tasks: [StoreTask] = []
    do {
      let store = Store(initialState: SavingParent.State()) { SavingParent(log: log) }
      core = store.core as? RootCore<SavingParent>
      for name in ["a", "b", "c"] {
        tasks.append(store.send(.child(.edit(name))))
      }
      // Each edit cancelled the save before it; none of the tasks has run.
      XCTAssertEqual(core?.effectsInFlight.map(\.action), [.child(.edit("c"))])
    }
    XCTAssertNil(core)
    XCTAssertEqual(log.events, [])
    for task in tasks {
      await task.finish()
    }
    let released = await eventually { log.events.count == 3 }
    XCTAssertTrue(released)
    XCTAssertEqual(log.events.sorted(), ["a released", "b released", "c released"])
  }

  /// An effect's task does not keep its store's core alive: the core goes with the store while
  /// the task still waits to run, and the task, when it runs, finds no core to report to.
  func testAStoreIsFreedWhileItsEffectsTaskWaitsToRun() async {
    let log = EventLog()
    weak var core: RootCore<Holder>?
    var task: StoreTask?
    do {
      let store = Store(initialState: Holder.State()) { Holder(log: log) }
      core = store.core as? RootCore<Holder>
      XCTAssertNotNil(core)
      task = store.send(.finish)
    }
    XCTAssertNil(core)
    await task?.finish()
    let released = await eventually { log.events.contains("finished released") }
    XCTAssertTrue(released)
    XCTAssertEqual(log.events, ["finished ran", "finished released"])
  }
}

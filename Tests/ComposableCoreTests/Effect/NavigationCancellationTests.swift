import ComposableCore
import ComposableTesting
import XCTest

/// Which effects a cancellation reaches across navigation levels: an id cancelled at a path
/// reaches the effects with that id at that path and below it, never a sibling's, as upstream
/// (which registers each effect under every prefix of its path). The features are written
/// here: a root with its own timer, rows, a sheet and a second sheet; the sheet with its own
/// timer, rows and an inner sheet. Every timer is `.cancellable(id: "timer")`.
@MainActor
final class NavigationCancellationTests: XCTestCase {
  private let log = EventLog()
  private let transcript = Transcript()

  private func makeStore() -> Store<NestedRoot.State, NestedRoot.Action> {
    Store(initialState: NestedRoot.State()) {
      NestedRoot(log: log).transcribed(into: transcript)
    }
  }

  /// Presents both sheets, the inner sheet and rows 1 and 2 in the sheet and row 1 at the
  /// root, then starts every timer: E1 root, E2 sheet, E3 inner, E4 and E5 the sheet's rows 1
  /// and 2, E6 the root's row 1, E7 the other sheet. Returns their tasks once all started.
  private func startEverything(_ store: Store<NestedRoot.State, NestedRoot.Action>) async
    -> [StoreTask]
  {
    store.send(.presentSheet)
    store.send(.presentOther)
    store.send(.addRow(1))
    store.send(.sheet(.presented(.presentInner)))
    store.send(.sheet(.presented(.addRow(1))))
    store.send(.sheet(.presented(.addRow(2))))
    let tasks = [
      store.send(.start),
      store.send(.sheet(.presented(.start))),
      store.send(.sheet(.presented(.inner(.presented(.start))))),
      store.send(.sheet(.presented(.rows(.element(id: 1, action: .start))))),
      store.send(.sheet(.presented(.rows(.element(id: 2, action: .start))))),
      store.send(.rows(.element(id: 1, action: .start))),
      store.send(.other(.presented(.start))),
    ]
    let names = [
      "root started", "sheet started", "inner 0 started", "sheet row 1 started",
      "sheet row 2 started", "root row 1 started", "other 0 started",
    ]
    let started = await eventually { names.allSatisfy { self.log.events.contains($0) } }
    XCTAssertTrue(started, "\(log.events)")
    transcript.clear()
    return tasks
  }

  private func cancellations() -> [String] {
    transcript.lines.filter { $0.contains("cancelled") }
  }

  func testACancellationReachesItsPathAndBelowButNoSibling() async {
    let store = makeStore()
    let tasks = await startEverything(store)

    store.send(.other(.presented(.stop)))
    XCTAssertEqual(
      cancellations(), ["  E7 cancelled in step 14: cancel(timer @ [presentation(other)])"])

    store.send(.sheet(.presented(.inner(.presented(.stop)))))
    XCTAssertEqual(
      cancellations().last,
      "  E3 cancelled in step 15: cancel(timer @ [presentation(sheet), presentation(inner)])")

    // The sheet's row 1, not the root's row 1 (same element id, other path).
    store.send(.sheet(.presented(.rows(.element(id: 1, action: .stop)))))
    XCTAssertEqual(
      cancellations().last,
      "  E4 cancelled in step 16: cancel(timer @ [presentation(sheet), forEach(rows)#1])")

    // The sheet's own timer and the row left below it, in the order they started.
    store.send(.sheet(.presented(.stop)))
    XCTAssertEqual(
      cancellations().last,
      "  E2, E5 cancelled in step 17: cancel(timer @ [presentation(sheet)])")

    store.send(.rows(.element(id: 1, action: .stop)))
    XCTAssertEqual(
      cancellations().last, "  E6 cancelled in step 18: cancel(timer @ [forEach(rows)#1])")

    store.send(.stop)
    XCTAssertEqual(cancellations().last, "  E1 cancelled in step 19: cancel(timer)")
    XCTAssertEqual(cancellations().count, 6)
    for task in tasks { await task.finish() }
    XCTAssertEqual(
      log.events.filter { $0.hasSuffix("onCancel") },
      [
        "other 0 onCancel", "inner 0 onCancel", "sheet row 1 onCancel", "sheet onCancel",
        "sheet row 2 onCancel", "root row 1 onCancel", "root onCancel",
      ])
  }

  func testTheRootsCancellationReachesEveryLevelInTheOrderTheyStarted() async {
    let store = makeStore()
    let tasks = await startEverything(store)
    store.send(.stop)
    XCTAssertEqual(
      transcript.text,
      """
      step 14 from user: .stop
        E1, E2, E3, E4, E5, E6, E7 cancelled in step 14: cancel(timer)
      end of step 14
      """)
    for task in tasks { await task.finish() }
  }

  func testADismissalEndsEveryEffectBelowTheSheetAndNothingElse() async {
    let store = makeStore()
    let tasks = await startEverything(store)

    store.send(.sheet(.presented(.inner(.dismiss))))
    XCTAssertEqual(cancellations(), ["  E3 cancelled in step 14: teardown(presentation)"])

    store.send(.sheet(.dismiss))
    XCTAssertEqual(
      cancellations().last, "  E2, E4, E5 cancelled in step 15: teardown(presentation)")

    // The root's timer, its row and the other sheet still run: the root's cancellation ends
    // exactly them.
    store.send(.stop)
    XCTAssertEqual(cancellations().last, "  E1, E6, E7 cancelled in step 16: cancel(timer)")
    XCTAssertEqual(cancellations().count, 3)
    for task in tasks { await task.finish() }
  }

  func testACancellationInASheetAfterItsEffectsEndedReachesNothing() async {
    let store = makeStore()
    let tasks = await startEverything(store)
    store.send(.sheet(.presented(.stop)))
    store.send(.sheet(.presented(.stop)))
    store.send(.sheet(.presented(.inner(.presented(.stop)))))
    XCTAssertEqual(
      cancellations(),
      ["  E2, E3, E4, E5 cancelled in step 14: cancel(timer @ [presentation(sheet)])"])
    // Started again under the same id and path: cancelled again, alone.
    let again = store.send(.sheet(.presented(.start)))
    let restarted = await eventually {
      self.log.events.filter { $0 == "sheet started" }.count == 2
    }
    XCTAssertTrue(restarted)
    store.send(.sheet(.presented(.stop)))
    XCTAssertEqual(
      cancellations().last, "  E8 cancelled in step 18: cancel(timer @ [presentation(sheet)])")
    store.send(.stop)
    XCTAssertEqual(cancellations().last, "  E1, E6, E7 cancelled in step 19: cancel(timer)")
    await again.finish()
    for task in tasks { await task.finish() }
  }

  func testAnEffectMadeCancellableTwiceWithOneIDIsCancelledOnce() async {
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { _, action in
        switch action {
        case .longRunning:
          return .run { _ in try? await Task.sleep(for: .seconds(1000)) }
            .cancellable(id: "long")
            .cancellable(id: "long", cancelInFlight: true)
        case .stop:
          return .cancel(id: "long")
        default:
          return .none
        }
      }
      .transcribed(into: transcript)
    }
    let first = store.send(.longRunning)
    let second = store.send(.longRunning)
    store.send(.stop)
    store.send(.stop)
    await first.finish()
    await second.finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .longRunning
      end of step 1
      E1 started by step 1: run [long, long]
      step 2 from user: .longRunning
      end of step 2
      E1 cancelled in step 2: cancelInFlight(long)
      E2 started by step 2: run [long, long]
      step 3 from user: .stop
        E2 cancelled in step 3: cancel(long)
      end of step 3
      step 4 from user: .stop
      end of step 4
      """)
  }

  /// An effect cancellable under two ids, each cancelling in flight (the outer id as a
  /// presentation puts its destination's around the child's own): the outer id's cancellation
  /// comes first, then the inner one's, each ending the effect filed under it, and the new
  /// effect is filed under both ids, outer first.
  func testNestedCancellablesCancelInFlightOuterFirstAndFileTheEffectUnderBoth() async {
    let store = Store(initialState: Logger.State()) {
      Reduce<Logger.State, Logger.Action> { _, action in
        let sleep = Effect<Logger.Action>.run { _ in try? await Task.sleep(for: .seconds(1000)) }
        switch action {
        case .step("a"):
          return sleep.cancellable(id: "a")
        case .step("b"):
          return sleep.cancellable(id: "b")
        case .longRunning:
          return sleep
            .cancellable(id: "b", cancelInFlight: true)
            .cancellable(id: "a", cancelInFlight: true)
        case .stop:
          return .cancel(id: "b")
        default:
          return .none
        }
      }
      .transcribed(into: transcript)
    }
    let tasks = [
      store.send(.step("a")), store.send(.step("b")), store.send(.longRunning), store.send(.stop),
    ]
    for task in tasks { await task.finish() }
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .step("a")
      end of step 1
      E1 started by step 1: run [a]
      step 2 from user: .step("b")
      end of step 2
      E2 started by step 2: run [b]
      step 3 from user: .longRunning
      end of step 3
      E1 cancelled in step 3: cancelInFlight(a)
      E2 cancelled in step 3: cancelInFlight(b)
      E3 started by step 3: run [a, b]
      step 4 from user: .stop
        E3 cancelled in step 4: cancel(b)
      end of step 4
      """)
  }
}

/// The sheet: its own timer, rows and an inner sheet, each running `Sleeper`s.
struct NestedSheet: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var inner: Sleeper.State?
    var rows: IdentifiedArrayOf<Sleeper.State> = []
  }

  enum Action: Equatable, Sendable {
    case start, stop
    case presentInner
    case addRow(Int)
    case inner(PresentationAction<Sleeper.Action>)
    case rows(IdentifiedAction<Int, Sleeper.Action>)
  }

  let log: EventLog

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return Timer.start(log: log, name: "sheet")
      case .stop:
        return .cancel(id: "timer")
      case .presentInner:
        state.inner = Sleeper.State(id: 0)
      case let .addRow(id):
        state.rows.append(Sleeper.State(id: id))
      case .inner, .rows:
        break
      }
      return .none
    }
    .ifLet(\.$inner, action: .nestedInner) { Sleeper(log: log, name: "inner") }
    .forEach(\.rows, action: .nestedSheetRows) { Sleeper(log: log, name: "sheet row") }
  }
}

/// The root: its own timer, rows, the sheet and another sheet.
struct NestedRoot: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var sheet: NestedSheet.State?
    @PresentationState var other: Sleeper.State?
    var rows: IdentifiedArrayOf<Sleeper.State> = []
  }

  enum Action: Equatable, Sendable {
    case start, stop
    case presentSheet, presentOther
    case addRow(Int)
    case sheet(PresentationAction<NestedSheet.Action>)
    case other(PresentationAction<Sleeper.Action>)
    case rows(IdentifiedAction<Int, Sleeper.Action>)
  }

  let log: EventLog

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return Timer.start(log: log, name: "root")
      case .stop:
        return .cancel(id: "timer")
      case .presentSheet:
        state.sheet = NestedSheet.State()
      case .presentOther:
        state.other = Sleeper.State(id: 0)
      case let .addRow(id):
        state.rows.append(Sleeper.State(id: id))
      case .sheet, .other, .rows:
        break
      }
      return .none
    }
    .ifLet(\.$sheet, action: .nestedSheet) { NestedSheet(log: log) }
    .ifLet(\.$other, action: .nestedOther) { Sleeper(log: log, name: "other") }
    .forEach(\.rows, action: .nestedRootRows) { Sleeper(log: log, name: "root row") }
  }
}

/// A timer like `Sleeper`'s, for a feature's own state.
private enum Timer {
  static func start<Action: Sendable>(log: EventLog, name: String) -> Effect<Action> {
    .run { _ in
      await withTaskCancellationHandler {
        log.append("\(name) started")
        try? await Task.sleep(for: .seconds(1000))
      } onCancel: {
        log.append("\(name) onCancel")
      }
    }
    .cancellable(id: "timer")
  }
}

extension AnyCasePath where Root == NestedSheet.Action, Value == PresentationAction<Sleeper.Action> {
  static var nestedInner: Self {
    .init(Root.inner) { if case let .inner(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == NestedSheet.Action, Value == IdentifiedAction<Int, Sleeper.Action> {
  static var nestedSheetRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == NestedRoot.Action, Value == PresentationAction<NestedSheet.Action> {
  static var nestedSheet: Self {
    .init(Root.sheet) { if case let .sheet(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == NestedRoot.Action, Value == PresentationAction<Sleeper.Action> {
  static var nestedOther: Self {
    .init(Root.other) { if case let .other(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == NestedRoot.Action, Value == IdentifiedAction<Int, Sleeper.Action> {
  static var nestedRootRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

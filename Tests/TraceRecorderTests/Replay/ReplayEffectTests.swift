import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A library that shows a book in a sheet and fetches the book's text from the parent while
/// the sheet is open: closing the sheet must cancel the fetch (the sheet's own teardown does
/// not reach an effect the parent started).
private struct Library: Reducer {
  struct State: Codable, Equatable, Sendable {
    @PresentationState var detail: BookDetail.State?
    var opened = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case bookTapped(Int)
    case detail(PresentationAction<BookDetail.Action>)
    case textLoaded(String)
  }

  enum CancelID: Hashable, Sendable { case detailFetch }

  /// The bug: dismissing forgets `.cancel(id: .detailFetch)`.
  var forgetsCancel = false

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .bookTapped(let id):
        state.detail = BookDetail.State(id: id)
        state.opened += 1
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.textLoaded("Book \(id)"))
        }
        .cancellable(id: CancelID.detailFetch)
      case .detail(.dismiss):
        return forgetsCancel ? .none : .cancel(id: CancelID.detailFetch)
      case .textLoaded(let text):
        state.detail?.text = text
        return .none
      case .detail:
        return .none
      }
    }
    .ifLet(\.$detail, action: .libraryDetail) { BookDetail() }
  }
}

private struct BookDetail: Reducer {
  struct State: Codable, Equatable, Sendable {
    var id: Int
    var text = ""
  }

  enum Action: Codable, Equatable, Sendable { case close }

  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

extension AnyCasePath
where Root == Library.Action, Value == PresentationAction<BookDetail.Action> {
  fileprivate static var libraryDetail: Self {
    .init(Root.detail) { if case let .detail(action) = $0 { action } else { nil } }
  }
}

/// A search field that waits for a pause in typing: each keystroke cancels the wait before
/// it (a debounce written by hand) and starts its own.
private struct SearchField: Reducer {
  struct State: Codable, Equatable, Sendable {
    var query = ""
    var searched: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case queryChanged(String)
    case search(String)
  }

  enum CancelID: Hashable, Sendable { case debounce }

  /// The bug: the debounce is written with `cancelInFlight: false`.
  var cancelInFlight = true

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { send in
        try await clock.sleep(for: .milliseconds(300))
        await send(.search(query))
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: cancelInFlight)
    case .search(let query):
      state.searched.append(query)
      return .none
    }
  }
}

/// A form whose save starts a log write too, and answers `.send(.saved)`.
private struct Form: Reducer {
  struct State: Codable, Equatable, Sendable {
    var saves = 0
    var logs = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case saveTapped
    case saved(Int)
    case logged
  }

  enum CancelID: Hashable, Sendable { case save, log }

  /// The variants the tests replay against the recording.
  enum Variant { case recorded, noLog, otherID, otherSend, logAfterSave }
  var variant = Variant.recorded

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveTapped:
      state.saves += 1
      let log = Effect<Action>.run { _ in }.cancellable(
        id: variant == .otherID ? CancelID.save : CancelID.log)
      let saved = Effect<Action>.send(.saved(variant == .otherSend ? 0 : state.saves))
      switch variant {
      case .noLog: return saved
      case .logAfterSave: return .concatenate(saved, .run { _ in }, .send(.logged))
      default: return .merge(log, saved)
      }
    case .saved:
      return .none
    case .logged:
      state.logs += 1
      return .none
    }
  }
}

@MainActor
final class ReplayEffectTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  /// Opens book 1 (its fetch still sleeping), closes the sheet, opens book 2 and lets its
  /// fetch finish: steps 1 bookTapped, 2 detail.dismiss, 3 bookTapped, 4 textLoaded.
  private func recordLibrary(_ library: Library) async throws -> String {
    try await TraceRecording.record(library, initialState: Library.State(), in: directory) {
      store, clock in
      store.send(.bookTapped(1))
      await waitUntil("the first fetch sleeps") { clock.sleeperCount == 1 }
      store.send(.detail(.dismiss))
      store.send(.bookTapped(2))
      // The dismiss cancelled the first fetch's sleep at once, unless the reducer forgot
      // to: then both fetches sleep. Waiting for fewer would let `advance` run before the
      // second fetch sleeps, and that fetch would never wake.
      await waitUntil("the fetches sleep") {
        clock.sleeperCount == (library.forgetsCancel ? 2 : 1)
      }
      await clock.advance(by: .seconds(1))
      await waitUntil("the text arrived") { store.state.detail?.text == "Book 2" }
    }
  }

  func testAForgottenCancelOfTheDetailFetchIsReportedAtTheDismiss() async throws {
    let path = try await recordLibrary(Library())
    XCTAssertEqual(try Replay(trace: path, reducer: Library()).run(), .matched(steps: 4))
    let result = try Replay(trace: path, reducer: Library(forgetsCancel: true)).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(divergence.step, 2)
    XCTAssertEqual(
      divergence.description,
      """
      Step 2 (detail.dismiss) diverged from the trace (1 step matched before it):
        the trace recorded cancelling `detailFetch` (run, step 1, \
      TraceRecorderTests/ReplayEffectTests.swift:37) with .cancel(id:); the reducer did not
      """)
  }

  func testTheFixOfAForgottenCancelIsReportedAtTheDismissOfTheBuggyTrace() async throws {
    let path = try await recordLibrary(Library(forgetsCancel: true))
    let result = try Replay(trace: path, reducer: Library()).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(
      divergence.description,
      """
      Step 2 (detail.dismiss) diverged from the trace (1 step matched before it):
        the reducer cancelled `detailFetch` (run, step 1, \
      TraceRecorderTests/ReplayEffectTests.swift:37) with .cancel(id:); the trace recorded no \
      cancellation of it here
      """)
  }

  func testACancelOfAnEffectThatHadFinishedCancelsNothing() async throws {
    // Book 1's fetch finishes before the sheet closes: the cancel reaches nothing, and a
    // reducer that forgets it behaves the same.
    let path = try await TraceRecording.record(
      Library(), initialState: Library.State(), in: directory
    ) { store, clock in
      let open = store.send(.bookTapped(1))
      await waitUntil("the fetch sleeps") { clock.sleeperCount == 1 }
      await clock.advance(by: .seconds(1))
      await open.finish()
      store.send(.detail(.dismiss))
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Library()).run(), .matched(steps: 3))
    XCTAssertEqual(
      try Replay(trace: path, reducer: Library(forgetsCancel: true)).run(), .matched(steps: 3))
  }

  /// Types "a", then "ab" while the first wait still sleeps, then lets the second finish.
  private func recordSearch(_ field: SearchField) async throws -> String {
    try await TraceRecording.record(field, initialState: SearchField.State(), in: directory) {
      store, clock in
      store.send(.queryChanged("a"))
      await waitUntil("the first wait sleeps") { clock.sleeperCount == 1 }
      store.send(.queryChanged("ab"))
      // With `cancelInFlight` the first wait was cancelled at once; without it both sleep.
      await waitUntil("the waits sleep") {
        clock.sleeperCount == (field.cancelInFlight ? 1 : 2)
      }
      await clock.advance(by: .milliseconds(300))
      await waitUntil("the search ran") { store.state.searched.contains("ab") }
    }
  }

  func testADebounceWithoutCancelInFlightIsReportedAtTheSecondKeystroke() async throws {
    let path = try await recordSearch(SearchField())
    let result = try Replay(trace: path, reducer: SearchField(cancelInFlight: false)).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(
      divergence.description,
      """
      Step 2 (queryChanged) diverged from the trace (1 step matched before it):
        the trace recorded cancelling `debounce` (run, step 1, \
      TraceRecorderTests/ReplayEffectTests.swift:97) in flight (cancelInFlight: true); the \
      reducer did not
      """)
  }

  func testTheDebounceFixIsReportedAtTheSecondKeystrokeOfTheBuggyTrace() async throws {
    let path = try await recordSearch(SearchField(cancelInFlight: false))
    let result = try Replay(trace: path, reducer: SearchField()).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    XCTAssertEqual(divergence.step, 2)
    XCTAssertEqual(
      divergence.findings,
      [
        .cancellationUnexpected(
          ReplayEffect(
            kind: "run", cancelID: "debounce", startedByStep: 1,
            location: "TraceRecorderTests/ReplayEffectTests.swift:97"),
          reason: "cancelInFlight")
      ])
  }

  func testEffectsStartedAreComparedByCountKindAndCancelID() async throws {
    let path = try await TraceRecording.record(Form(), initialState: Form.State(), in: directory) {
      store, _ in
      store.send(.saveTapped)
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Form()).run(), .matched(steps: 2))
    let location = "TraceRecorderTests/ReplayEffectTests.swift:132"
    let log = ReplayEffect(kind: "run", cancelID: "log", startedByStep: 1, location: location)
    let noLog = try Replay(trace: path, reducer: Form(variant: .noLog)).run()
    XCTAssertEqual(
      noLog.divergence?.findings, [.effectsStarted(recorded: [log], replayed: [])])
    XCTAssertEqual(
      noLog.description,
      """
      Step 1 (saveTapped) diverged from the trace (0 steps matched before it):
        the reducer started no effect; the trace recorded 1 effect:
          recorded  `log` (run, step 1, TraceRecorderTests/ReplayEffectTests.swift:132)
      """)
    let otherID = try Replay(trace: path, reducer: Form(variant: .otherID)).run()
    XCTAssertEqual(
      otherID.divergence?.findings,
      [
        .effectsStarted(
          recorded: [log],
          replayed: [
            ReplayEffect(
              kind: "run", cancelID: "save", startedByStep: 1, location: location)
          ])
      ])
    let concatenated = try Replay(trace: path, reducer: Form(variant: .logAfterSave)).run()
    XCTAssertEqual(
      concatenated.divergence?.findings,
      [
        .effectsStarted(
          recorded: [log],
          replayed: [
            ReplayEffect(kind: "concatenation", cancelID: nil, startedByStep: 1, location: nil)
          ])
      ])
  }

  /// Typed replay reads a batch's rows on one thread and its lines on the replay thread. A
  /// line that cannot be read is still the failure reported when a later row of the same
  /// batch is damaged too: the line comes first in the trace, as it did read on one thread.
  func testAnUnreadableLineIsReportedBeforeADamagedRowLaterInItsBatch() async throws {
    let path = try await TraceRecording.record(Form(), initialState: Form.State(), in: directory) {
      store, _ in
      store.send(.saveTapped)
      store.send(.saveTapped)
      store.send(.saveTapped)
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Form()).run(), .matched(steps: 6))
    let editor = try TraceEditor(path: path)
    try editor.editChunkLines(firstStep: 0) { lines in
      // Step 3 (the second saveTapped) loses its action's closing brace.
      lines[3] = lines[3].replacingOccurrences(
        of: "{\"$case\":\"saveTapped\"}", with: "{\"$case\":\"saveTapped\"")
    }
    // Step 4 (its send) gets a row the index check refuses (not the last row, which opening
    // the trace reads).
    try editor.execute("UPDATE steps SET mono_ns = 'soon' WHERE step = 4")
    editor.close()
    XCTAssertThrowsError(try Replay(trace: path, reducer: Form()).run()) { error in
      guard case .unreadableTrace(let reason)? = (error as? ReplayError)?.kind else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(reason.contains("step 3"), reason)
      XCTAssertFalse(reason.contains("mono_ns"), reason)
    }
  }

  func testTheSendsOfAStepAreComparedWithTheStepsTheTraceSaysItSent() async throws {
    let path = try await TraceRecording.record(Form(), initialState: Form.State(), in: directory) {
      store, _ in
      store.send(.saveTapped)
    }
    let result = try Replay(trace: path, reducer: Form(variant: .otherSend)).run()
    XCTAssertEqual(result.divergence?.step, 1)
    XCTAssertEqual(
      result.divergence?.findings,
      [.sends(recorded: [.enumCase("saved", [TraceField("_0", .int(1))])],
              replayed: [.enumCase("saved", [TraceField("_0", .int(0))])])])
  }

  func testAConcatenationsPartsAndSendsAreChecked() async throws {
    let path = try await TraceRecording.record(
      Form(variant: .logAfterSave), initialState: Form.State(), in: directory
    ) { store, _ in
      await store.send(.saveTapped).finish()
      XCTAssertEqual(store.state.logs, 1)
    }
    XCTAssertEqual(
      try Replay(trace: path, reducer: Form(variant: .logAfterSave)).run(), .matched(steps: 3))
  }
}

extension ReplayResult {
  /// The divergence, if the replay diverged.
  var divergence: ReplayDivergence? {
    if case .diverged(let divergence) = self { return divergence }
    return nil
  }
}

import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Typed replay reads a trace's steps in blocks of whole batches on its reading thread and
/// checks the states on a second thread in runs: on a composed feature (rows in `forEach`
/// whose taps start effects and answer with a `.send`, a presented child, an `onChange`),
/// over more steps than one block and one run hold, whatever differs is reported at its own
/// step, with the same findings as a replay that read and checked one step at a time.
@MainActor
final class TypedReplayBlocksTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  /// 400 rounds of four steps: a row's tap and the `.send` it answers with, then the sheet
  /// opened and typed into (odd rounds) or closed and the board counted (even rounds).
  private static let rounds = 400
  /// The steps the script records: round `n`'s tap is step 4 × (n − 1) + 1.
  private static let steps = rounds * 4

  func testTheRecordedReducerMatchesEveryStep() async throws {
    let path = try await record()
    XCTAssertEqual(try Replay(trace: path, reducer: Board()).run(), .matched(steps: Self.steps))
  }

  /// Round 300's tap is step 1,197 (and 1,198 the `tapped` it sends): the row miscounts
  /// there, in a later block than the first, and the state differs at 1,197.
  func testARowThatMiscountsIsReportedAtItsStep() async throws {
    let path = try await record()
    let result = try Replay(trace: path, reducer: Board(variant: .rowMiscounts(round: 300))).run()
    XCTAssertEqual(result.divergence?.step, 1_197)
    XCTAssertEqual(result.divergence?.matchedSteps, 1_196)
    XCTAssertEqual(result.divergence?.actionPath, "row.element.tap")
    // The row's taps and the board's total (kept by `onChange`).
    XCTAssertEqual(result.divergence?.findings, [.state(changes: 2)])
  }

  /// The tap of round 133 forgets its `.send(.tapped)`: reported at the tap (step 529, in
  /// the second block), with the send the trace recorded.
  func testARowThatForgetsItsSendIsReportedAtItsStep() async throws {
    let path = try await record()
    let result = try Replay(trace: path, reducer: Board(variant: .forgetsSend(round: 133))).run()
    let tapped = try Self.tapped(row: 133 % 5)
    XCTAssertEqual(result.divergence?.step, 529)
    XCTAssertEqual(result.divergence?.matchedSteps, 528)
    XCTAssertEqual(
      result.divergence?.findings, [.sends(recorded: [tapped], replayed: [])])
  }

  /// The tap of round 350 starts no effect (and so cancels none in flight): reported at its
  /// step, 1,397, with the effect the trace recorded started and the one (row 0's wait of
  /// round 345) it recorded cancelled.
  func testARowThatForgetsItsEffectIsReportedAtItsStep() async throws {
    let path = try await record()
    let result = try Replay(trace: path, reducer: Board(variant: .forgetsEffect(round: 350)))
      .run()
    XCTAssertEqual(result.divergence?.step, 1_397)
    XCTAssertEqual(result.divergence?.matchedSteps, 1_396)
    XCTAssertEqual(result.divergence?.findings.count, 2)
    guard case .effectsStarted(let recorded, let replayed)? = result.divergence?.findings.first
    else {
      return XCTFail("\(result)")
    }
    XCTAssertEqual(recorded.map(\.startedByStep), [1_397])
    XCTAssertEqual(replayed, [])
    guard case .cancellationMissing(let cancelled, let reason)? = result.divergence?.findings.last
    else {
      return XCTFail("\(result)")
    }
    XCTAssertEqual(cancelled.startedByStep, 1_377)
    XCTAssertEqual(reason, "cancelInFlight")
  }

  /// The `onChange` miscomputes while the sheet of round 301 is presented: opening it (step
  /// 1,203) leaves the total as it was, so its reducer first runs at the typing, step 1,204,
  /// where the state differs in the total alone.
  func testAnOnChangeThatMiscomputesIsReportedAtItsStep() async throws {
    let path = try await record()
    let result = try Replay(trace: path, reducer: Board(variant: .onChangeMiscounts(round: 301)))
      .run()
    XCTAssertEqual(result.divergence?.step, 1_204)
    XCTAssertEqual(result.divergence?.matchedSteps, 1_203)
    XCTAssertEqual(result.divergence?.actionPath, "sheet.presented.typed")
    XCTAssertEqual(result.divergence?.findings, [.state(changes: 1)])
  }

  private static func tapped(row: Int) throws -> TraceValue {
    // As the trace writes `.row(.element(id: row, action: .tapped))`.
    try TraceValueEncoder().encode(Board.Action.row(.element(id: row, action: .tapped)))
  }

  /// Round `n` (from 1): tap row `n % 5` (two steps), open the sheet on odd rounds and close
  /// it on even ones, then type into it when it is open or tap the counter when it is not.
  private func record() async throws -> String {
    try await TraceRecording.record(Board(), initialState: Board.State(), in: directory) {
      store, _ in
      for round in 1...Self.rounds {
        store.send(.row(.element(id: round % 5, action: .tap)))
        if round % 2 == 1 {
          store.send(.openSheet)
          store.send(.sheet(.presented(.typed("r\(round)"))))
        } else {
          store.send(.sheet(.dismiss))
          store.send(.counted)
        }
      }
    }
  }
}

/// Five rows in `forEach` whose taps restart a per-row effect (cancel in flight) and answer
/// with a `.send`, a sheet presented with `ifLet`, and a total kept by `onChange`.
private struct Board: Reducer {
  struct State: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = IdentifiedArray(
      uniqueElements: (0..<5).map { Row.State(id: $0) })
    @PresentationState var sheet: Sheet.State?
    var total = 0
    var counted = 0
    var opened = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case row(IdentifiedAction<Int, Row.Action>)
    case sheet(PresentationAction<Sheet.Action>)
    case openSheet
    case counted
  }

  enum Variant: Equatable {
    case recorded
    case rowMiscounts(round: Int)
    case forgetsSend(round: Int)
    case forgetsEffect(round: Int)
    case onChangeMiscounts(round: Int)
  }

  var variant = Variant.recorded

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .openSheet:
        state.opened += 1
        state.sheet = Sheet.State(round: state.opened * 2 - 1)
        return .none
      case .counted:
        state.counted += 1
        return .none
      case .row, .sheet:
        return .none
      }
    }
    .forEach(\.rows, action: .boardRow) { Row(variant: variant) }
    .ifLet(\.$sheet, action: .boardSheet) { Sheet() }
    .onChange(of: { $0.rows.reduce(0) { $0 + $1.taps } + ($0.sheet?.typed.count ?? 0) }) {
      _, total in
      Reduce { state, _ in
        let miscounts: Bool
        if case .onChangeMiscounts(let round) = variant, state.sheet?.round == round {
          miscounts = true
        } else {
          miscounts = false
        }
        state.total = miscounts ? total + 1 : total
        return .none
      }
    }
  }

  struct Row: Reducer {
    struct State: Codable, Equatable, Sendable, Identifiable {
      var id: Int
      var taps = 0
      var answered = 0
    }

    enum Action: Codable, Equatable, Sendable {
      case tap
      case tapped
    }

    enum CancelID: Hashable, Sendable { case wait }

    var variant: Variant

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .tap:
        state.taps += 1
        // The board's round: each tap of this row is five rounds after its last.
        let round = (state.taps - 1) * 5 + (state.id == 0 ? 5 : state.id)
        if variant == .rowMiscounts(round: round) { state.taps += 1 }
        let wait = Effect<Action>.run { _ in try await clock.sleep(for: .seconds(60)) }
          .cancellable(id: CancelID.wait, cancelInFlight: true)
        let tapped = Effect<Action>.send(.tapped)
        if variant == .forgetsSend(round: round) { return wait }
        if variant == .forgetsEffect(round: round) { return tapped }
        return .merge(wait, tapped)
      case .tapped:
        state.answered += 1
        return .none
      }
    }
  }

  struct Sheet: Reducer {
    struct State: Codable, Equatable, Sendable {
      var round: Int
      var typed = ""
    }

    enum Action: Codable, Equatable, Sendable { case typed(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .typed(let text):
        state.typed = text
        return .none
      }
    }
  }
}

extension AnyCasePath where Root == Board.Action, Value == IdentifiedAction<Int, Board.Row.Action> {
  fileprivate static var boardRow: Self {
    AnyCasePath(embed: Board.Action.row) {
      guard case .row(let action) = $0 else { return nil }
      return action
    }
  }
}

extension AnyCasePath where Root == Board.Action, Value == PresentationAction<Board.Sheet.Action> {
  fileprivate static var boardSheet: Self {
    AnyCasePath(embed: Board.Action.sheet) {
      guard case .sheet(let action) = $0 else { return nil }
      return action
    }
  }
}

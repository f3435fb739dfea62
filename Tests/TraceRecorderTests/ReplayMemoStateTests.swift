import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceValues
import XCTest

@testable import TraceRecorder

/// The replay's state hasher keeps each place's last value and hash (`HashMemo`) and reuses
/// the hash where the bits did not change: on a state whose places change in the ways that
/// could fool it (a child presented late with an optional inside it presented later still, an
/// enum switching cases, rows moved, `-0.0` after `0.0`, a field a custom `==` ignores), every
/// step must match its recorded hash, and a state that differs from the trace only in a sign
/// must be found at its step. A state holding a class instance, which a trace cannot replay,
/// is hashed as the tree encoder writes it, the instance changed in place included.
@MainActor
final class ReplayMemoStateTests: XCTestCase {
  func testEveryStepOfAStateWhosePlacesChangeKindMatches() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("desk.rewind")
    let steps = try await record(to: path)
    XCTAssertEqual(try Replay(trace: path, reducer: Desk()).run(), .matched(steps: steps))
  }

  func testANegativeZeroWhereTheTraceHasZeroIsFoundAtItsStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("desk.rewind")
    _ = try await record(to: path)
    let result = try Replay(trace: path, reducer: Desk(flipsTilt: 5)).run()
    guard case .diverged(let divergence) = result else {
      return XCTFail("expected a divergence, got \(result)")
    }
    // Tilt 5 is the second tilt of the second round (steps count from 1).
    XCTAssertEqual(divergence.step, Desk.script.count + Desk.script.firstIndex(of: .tilt)! + 2)
    XCTAssertEqual(divergence.actionPath, "tilt")
  }

  /// The replay's hasher (`ReplayEngine`'s) on a state holding a class instance that changes
  /// in place between steps whose other places change too, or not at all.
  func testAStateHoldingAClassInstanceHashesAsItsTree() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true, valueBytes: significantBytes(of:))
    let encoder = TraceValueEncoder()
    var state = Lit()
    for step in 0..<40 {
      switch step % 4 {
      case 0: state.fixture.lamp.watts += 1
      case 1: state.label = step % 8 == 1 ? "on" : "off"
      case 2: state.level = step % 8 == 2 ? -0.0 : 0.0
      default: break
      }
      XCTAssertEqual(
        try hasher.stableHash(of: state),
        try encoder.encodeReplacingClassInstances(state).value.stableHash, "step \(step)")
    }
  }

  /// Records `Desk.script` three times; the number of steps.
  private func record(to path: String) async throws -> Int {
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Desk.State()) { Desk().recording(to: recorder) }
    for _ in 0..<3 {
      for action in Desk.script { store.send(action) }
    }
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    return 3 * Desk.script.count
  }
}

/// A state holding a class instance, changed in place: written as its placeholder.
private struct Lit: Encodable {
  final class Lamp: Encodable {
    var watts = 40
  }

  struct Fixture: Encodable {
    var name = "desk lamp"
    var lamp = Lamp()
  }

  var fixture = Fixture()
  var label = "off"
  var level = 0.0
}

private struct Desk: Reducer {
  /// Equal whatever its note says.
  struct Badge: Codable, Equatable, Sendable {
    var label = "new"
    var note = ""
    static func == (lhs: Badge, rhs: Badge) -> Bool { lhs.label == rhs.label }
  }

  struct Row: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var weight: Double
  }

  struct Inner: Codable, Equatable, Sendable {
    var depth: Int
    var tag: String?
  }

  struct Detail: Codable, Equatable, Sendable {
    var title = "detail"
    var inner: Inner?
  }

  struct Editor: Codable, Equatable, Sendable {
    var text: String
  }

  enum Destination: Codable, Equatable, Sendable {
    case editor(Editor)
    case picker(String, count: Int)
    case confirm
  }

  struct State: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
    @PresentationState var detail: Detail?
    var destination: Destination?
    var badge = Badge()
    var level = 0.0
    var tilts = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case addRow(Int)
    case present
    case rename(String)
    case openInner
    case deepen(String?)
    case route(Destination?)
    case move(Int, Int)
    case tilt
    case badge(String)
    case dismiss
  }

  static let script: [Action] = [
    .addRow(1), .addRow(2), .addRow(3), .present, .rename("x"), .openInner, .deepen("t"),
    .route(.editor(Editor(text: "a"))), .route(.picker("p", count: 2)), .route(.confirm),
    .route(nil), .route(.editor(Editor(text: "b"))), .move(0, 3), .tilt, .tilt,
    .badge("seen"), .badge("read"), .move(2, 0), .deepen(nil), .tilt, .dismiss, .present,
    .openInner, .tilt, .route(.picker("q", count: 0)), .badge(""), .dismiss,
  ]

  /// The tilt (counted from 0) that writes the other zero's sign.
  var flipsTilt: Int?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addRow(let id):
      if let row = state.rows[id: id] {
        // 0.0, then -0.0, then 0.0 again.
        state.rows[id: id]?.weight = -row.weight - 0.0
      } else {
        state.rows.append(Row(id: id, title: "row \(id)", weight: 0.0))
      }
    case .present:
      state.detail = Detail()
    case .rename(let title):
      state.detail?.title = title
    case .openInner:
      state.detail?.inner = Inner(depth: 1, tag: nil)
    case .deepen(let tag):
      state.detail?.inner?.tag = tag
      state.detail?.inner?.depth += 1
    case .route(let destination):
      state.destination = destination
    case .move(let from, let to):
      state.rows.move(fromOffsets: [from], toOffset: to)
    case .tilt:
      // 0.0, -0.0, 0.0, …: equal by `==`, apart by their bits.
      let negative = state.tilts % 2 == 0
      let flipped = state.tilts == flipsTilt ? !negative : negative
      state.level = flipped ? -0.0 : 0.0
      state.tilts += 1
    case .badge(let note):
      state.badge.note = note
    case .dismiss:
      state.detail = nil
    }
    return .none
  }
}

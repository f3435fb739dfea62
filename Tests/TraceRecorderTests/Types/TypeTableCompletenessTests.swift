import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// The type table holds every type, enum case and raw value the recording met, wherever it
/// appeared: inside a struct or an optional set whole, inside an inserted element, beyond the
/// elements a walk looks at, inside an action's struct or optional payload (`Kennel`).
@MainActor
final class TypeTableCompletenessTests: XCTestCase {
  private typealias Mood = Kennel.Mood
  private typealias Badge = Kennel.Badge

  /// Kennel's steps; each comment says what the step brings that the table did not have.
  private func drive(_ send: (Kennel.Action) -> Void) {
    // The effect of `start` sends `finished`, which sets row 70's mood: a case met only
    // beyond the first 64 rows.
    send(.row(.element(id: 70, action: .start(.away))))
    send(.row(.element(id: 1, action: .start(.away))))
    // An inserted row: an enum case and an optional holding a struct, inside the element.
    send(.add(Kennel.Row.State(id: 71, mood: .busy(level: 2), badge: Badge(tier: .silver, mood: .calm))))
    // A detail presented, a note presented inside it, a raw value set there.
    send(.present(.calm))
    send(.detail(.presented(.openNote(.bronze))))
    send(.detail(.presented(.note(.presented(.promote)))))
    // Dismissed and presented again whole: its enum in a case not met before.
    send(.detail(.dismiss))
    send(.present(.busy(level: 5)))
    // An action's optional struct payload: nil twice, then a value.
    send(.pick(id: 1, badge: nil))
    send(.pick(id: 2, badge: nil))
    send(.pick(id: 3, badge: Badge(tier: .gold, mood: .away)))
    // An enum and a raw-value enum inside an action's struct payload: new ones in later
    // values of the same case.
    send(.tag(Badge(tier: .bronze, mood: .calm)))
    send(.tag(Badge(tier: .silver, mood: .busy(level: 1))))
    send(.tag(Badge(tier: .gold, mood: .away)))
    // An optional in a row, nil so far, set to a struct with a raw value and a case the
    // row's badge has not had.
    send(.row(.element(id: 2, action: .award(Badge(tier: .gold, mood: .busy(level: 9))))))
  }

  private static func initialState() -> Kennel.State {
    Kennel.State(rows: IdentifiedArray(uniqueElements: (1...70).map { Kennel.Row.State(id: $0) }))
  }

  private let own = "TraceRecorderTests.Kennel."

  private var kennelStateLines: [String] {
    [
      ": \(own)State struct",
      "detail: \(own)Detail.State struct optional",
      "detail.mood: \(own)Mood enum cases busy,calm",
      "detail.mood.busy.level: Swift.Int integer",
      "detail.note: \(own)Note.State struct optional",
      "detail.note.tier: \(own)Tier enum cases bronze,gold raw 1=bronze,3=gold",
      "picked: \(own)Badge struct optional",
      "picked.mood: \(own)Mood enum cases away",
      "picked.tier: \(own)Tier enum cases gold raw 3=gold",
      "rows: ComposableCore.IdentifiedArray<Swift.Int, \(own)Row.State> identifiedArray key Swift.Int",
      "rows[]: \(own)Row.State struct",
      "rows[].badge: \(own)Badge struct optional",
      "rows[].badge.mood: \(own)Mood enum cases busy,calm",
      "rows[].badge.mood.busy.level: Swift.Int integer",
      "rows[].badge.tier: \(own)Tier enum cases gold,silver raw 2=silver,3=gold",
      "rows[].id: Swift.Int integer",
      "rows[].mood: \(own)Mood enum cases away,busy,calm",
      "rows[].mood.busy.level: Swift.Int integer",
    ]
  }

  private var kennelActionLines: [String] {
    [
      ": \(own)Action enum cases add,detail,pick,present,row,tag",
      "add: \(own)Row.State struct",
      "add.badge: \(own)Badge struct optional",
      "add.badge.mood: \(own)Mood enum cases calm",
      "add.badge.tier: \(own)Tier enum cases silver raw 2=silver",
      "add.id: Swift.Int integer",
      "add.mood: \(own)Mood enum cases busy",
      "add.mood.busy.level: Swift.Int integer",
      "detail: ComposableCore.PresentationAction<\(own)Detail.Action> enum cases dismiss,presented",
      "detail.presented: \(own)Detail.Action enum cases note,openNote",
      "detail.presented.note: ComposableCore.PresentationAction<\(own)Note.Action> enum cases presented",
      "detail.presented.note.presented: \(own)Note.Action enum cases promote",
      "detail.presented.openNote: \(own)Tier enum cases bronze raw 1=bronze",
      "pick.badge: \(own)Badge struct optional",
      "pick.badge.mood: \(own)Mood enum cases away",
      "pick.badge.tier: \(own)Tier enum cases gold raw 3=gold",
      "pick.id: Swift.Int integer",
      "present: \(own)Mood enum cases busy,calm",
      "present.busy.level: Swift.Int integer",
      "row: ComposableCore.IdentifiedAction<Swift.Int, \(own)Row.Action> enum cases element",
      "row.element.action: \(own)Row.Action enum cases award,finished,start",
      "row.element.action.award: \(own)Badge struct",
      "row.element.action.award.mood: \(own)Mood enum cases busy",
      "row.element.action.award.mood.busy.level: Swift.Int integer",
      "row.element.action.award.tier: \(own)Tier enum cases gold raw 3=gold",
      "row.element.action.finished: \(own)Mood enum cases away",
      "row.element.action.start: \(own)Mood enum cases away",
      "row.element.id: Swift.Int integer",
      "tag: \(own)Badge struct",
      "tag.mood: \(own)Mood enum cases away,busy,calm",
      "tag.mood.busy.level: Swift.Int integer",
      "tag.tier: \(own)Tier enum cases bronze,gold,silver raw 1=bronze,2=silver,3=gold",
    ]
  }

  /// Records `reducer` (given the Recorder) on a store starting at `initialState`, sends
  /// through `drive`, and reads the type table back from the closed trace.
  private func recordedTable<R: Reducer<Kennel.State, Kennel.Action>>(
    initialState: Kennel.State = TypeTableCompletenessTests.initialState(),
    _ reducer: (Recorder) -> R, drive: ((Kennel.Action) -> Void) -> Void
  ) async throws -> SwiftTypeTable {
    let directory = try TemporaryDirectory()
    let path = directory.path("kennel.rewind")
    let recorder = try Recorder(path: path)
    let recorded = reducer(recorder)
    let store = Store(initialState: initialState) { recorded }
    drive { store.send($0) }
    recorder.finish()
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    return try XCTUnwrap(try TraceReader(path: path).swiftTypes())
  }

  func testEveryCaseRawValueAndOptionalMetIsInTheTable() async throws {
    let table = try await recordedTable({ Kennel().recording(to: $0) }, drive: drive)
    XCTAssertEqual(SwiftTypeEntry.lines(table.state), kennelStateLines)
    XCTAssertEqual(SwiftTypeEntry.lines(table.action), kennelActionLines)
  }

  /// The Recorder not outermost: in `CombineReducers` after a reducer of the same state, under
  /// `.dependency(…)`.
  func testTheTableIsCompleteWithTheRecorderNotOutermost() async throws {
    let table = try await recordedTable(
      { recorder in
        CombineReducers {
          Reduce<Kennel.State, Kennel.Action> { _, _ in .none }
          Kennel().recording(to: recorder)
        }
        .dependency(\.uuid, .incrementing)
      }, drive: drive)
    XCTAssertEqual(SwiftTypeEntry.lines(table.state), kennelStateLines)
    XCTAssertEqual(SwiftTypeEntry.lines(table.action), kennelActionLines)
  }

  /// A case, a raw value and an optional's type held at the start only by rows beyond the
  /// first ones a walk looks at, and never changed: in the table from step 0.
  func testTheInitialStateBeyondTheWalkedElementsIsInTheTable() async throws {
    var rows = Self.initialState().rows
    rows[id: 68]?.mood = .busy(level: 3)
    rows[id: 70]?.badge = Badge(tier: .silver, mood: .away)
    let table = try await recordedTable(
      initialState: Kennel.State(rows: rows), { Kennel().recording(to: $0) },
      drive: { send in send(.row(.element(id: 1, action: .finished(.calm)))) })
    XCTAssertEqual(
      SwiftTypeEntry.lines(table.state),
      [
        ": \(own)State struct",
        "detail: \(own)Detail.State other optional",
        "picked: \(own)Badge other optional",
        "rows: ComposableCore.IdentifiedArray<Swift.Int, \(own)Row.State> identifiedArray key Swift.Int",
        "rows[]: \(own)Row.State struct",
        "rows[].badge: \(own)Badge struct optional",
        "rows[].badge.mood: \(own)Mood enum cases away",
        "rows[].badge.tier: \(own)Tier enum cases silver raw 2=silver",
        "rows[].id: Swift.Int integer",
        "rows[].mood: \(own)Mood enum cases busy,calm",
        "rows[].mood.busy.level: Swift.Int integer",
      ])
  }
}

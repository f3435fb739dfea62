import ComposableCore
import Foundation
import TraceKit
import XCTest

@testable import TraceRecorder

/// The `cancel_id` column of an effect's record: its ids' texts joined by ", ", in order, the
/// same when an equal list was met before.
final class EffectRecordsTests: XCTestCase {
  private func id(_ base: some Hashable & Sendable) -> EffectCancelID {
    EffectCancelID(id: AnyHashableSendable(base), navigationIDPath: NavigationIDPath())
  }

  private func effect(_ cancelIDs: [EffectCancelID]) -> CapturedEffect {
    let launch = EffectLaunch(
      id: EffectID(uuid: UUID()), step: 3, kind: .run, parent: nil, cancelIDs: cancelIDs,
      location: nil)
    return CapturedEffect(launch: launch, startNanos: 40, startedAfterStep: 2)
  }

  func testTheColumnIsTheIdsTextsJoinedWhetherTheListWasMetBeforeOrNot() {
    var records = EffectRecords()
    XCTAssertEqual(records.record(of: effect([id("search"), id(7)])).cancelID, "search, 7")
    // Equal ids made again: the same column, from the list met before.
    XCTAssertEqual(records.record(of: effect([id("search"), id(7)])).cancelID, "search, 7")
    XCTAssertEqual(records.record(of: effect([id(7), id("search")])).cancelID, "7, search")
    XCTAssertEqual(records.record(of: effect([id("search"), id("7")])).cancelID, "search, 7")
    XCTAssertEqual(
      records.record(of: effect([id("search"), id(7), id("search")])).cancelID,
      "search, 7, search")
    XCTAssertEqual(records.record(of: effect([id("search")])).cancelID, "search")
    XCTAssertNil(records.record(of: effect([])).cancelID)
    let record = records.record(of: effect([id(1), id(2)]))
    XCTAssertEqual(record.cancelID, "1, 2")
    XCTAssertEqual(record.startedByStep, 3)
    XCTAssertEqual(record.startNanos, 40)
    XCTAssertEqual(record.startedAfterStep, 2)
    XCTAssertEqual(record.kind, "run")
  }

  /// More lists than the cache keeps: each column is still its own list's.
  func testManyListsEachGetTheirOwnColumn() {
    var records = EffectRecords()
    for round in 0..<2 {
      for index in 0..<5_000 {
        let column = records.record(of: effect([id(index), id("row")])).cancelID
        XCTAssertEqual(column, "\(index), row", "round \(round)")
        guard column == "\(index), row" else { return }
      }
    }
  }
}

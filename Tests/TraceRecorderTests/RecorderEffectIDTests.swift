import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// The `effects` table is keyed by the effects' ids, which are time-ordered: the rows are
/// appended in the order of their keys.
@MainActor
final class RecorderEffectIDTests: XCTestCase {
  /// Books read (an effect each, one book twice) and one removed (its effect cancelled by
  /// `forEach`): the table's rows, in the order written, have strictly increasing version-7
  /// ids.
  func testTheEffectsTableHoldsIncreasingVersion7IDsInTheOrderWritten() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shelf.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Shelf.State()) {
      Shelf().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    for id in [1, 2, 3] { store.send(.add(id)) }  // 1-3
    for id in [1, 2, 3, 1] { store.send(.book(.element(id: id, action: .read))) }  // 4-7
    await clock.waitForSleepers(4)
    store.send(.remove(2))  // 8
    await clock.waitForSleepers(3)
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let effects = try TraceReader(path: path).effects()
    XCTAssertEqual(
      effects.map { "\($0.startedByStep) \($0.cancelID ?? "") \($0.outcome)" },
      [
        "4 forEach(book)#1 unfinished",
        "5 forEach(book)#2 cancelled(reason: \"forEach\", byStep: Optional(8))",
        "6 forEach(book)#3 unfinished",
        "7 forEach(book)#1 unfinished",
      ])
    let ids = effects.map(\.id.uuidString)
    XCTAssertEqual(ids.map { Array($0)[14] }, ["7", "7", "7", "7"])
    XCTAssertTrue(ids.allSatisfy { "89AB".contains(Array($0)[19]) }, "\(ids)")
    XCTAssertTrue(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "\(ids)")
  }
}

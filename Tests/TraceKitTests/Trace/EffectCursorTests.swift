import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `TraceReader.effectCursor`: effects of a range of starting steps, one at a time, in the
/// order they started (not the order they were written), each with the steps it sent.
final class EffectCursorTests: XCTestCase {
  func id(_ n: Int) -> UUID { UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")! }

  func testEffectsComeInStartOrderWithTheirSendsWithinTheRange() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: SyntheticTrace().state)
    var trace = SyntheticTrace()
    for _ in 1...8 {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
    }
    // Written out of start order: the cursor sorts by start time, then by the written order.
    try writer.effectStarted(EffectRecord(id: id(1), startedByStep: 2, startNanos: 5_000))
    try writer.effectStarted(EffectRecord(id: id(2), startedByStep: 1, startNanos: 1_000))
    try writer.effectStarted(EffectRecord(id: id(3), startedByStep: 3, startNanos: 5_000))
    try writer.effectStarted(EffectRecord(id: id(4), startedByStep: 7, startNanos: 9_000))
    try writer.effectSent(id: id(1), step: 4)
    try writer.effectSent(id: id(1), step: 3)
    try writer.effectEnded(id: id(1), endNanos: 6_000, outcome: .finished)
    try writer.close()

    let reader = try TraceReader(path: path)
    func read(_ first: Int, _ last: Int) throws -> [EffectRecord] {
      let cursor = try reader.effectCursor(startedFrom: first, through: last)
      var effects: [EffectRecord] = []
      while let effect = try cursor.next() { effects.append(effect) }
      XCTAssertNil(try cursor.next())
      return effects
    }
    XCTAssertEqual(try read(0, 8).map(\.id), [id(2), id(1), id(3), id(4)])
    XCTAssertEqual(try read(2, 3).map(\.id), [id(1), id(3)])
    XCTAssertEqual(try read(4, 6), [])
    let first = try XCTUnwrap(try read(2, 2).first)
    XCTAssertEqual(
      first,
      EffectRecord(
        id: id(1), startedByStep: 2, startNanos: 5_000, endNanos: 6_000, outcome: .finished,
        sentSteps: [3, 4]))
    // The same records as reading them all at once.
    XCTAssertEqual(Set(try read(0, 8)), Set(try reader.effects()))
  }
}

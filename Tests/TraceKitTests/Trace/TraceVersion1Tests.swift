import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Traces written in format version 1 still read: one row per chunk, effects numbered from
/// origin 2, counters in `meta`, dates as numbers and nil fields left out.
final class TraceVersion1Tests: XCTestCase {
  func testAVersion1TraceReadsWithEveryStateMatchingItsHash() throws {
    let reader = try TraceReader(path: FixtureTraces.path("version-1/home.rewind"))
    let info = try reader.info()
    XCTAssertEqual(info.formatVersion, 1)
    XCTAssertEqual(info.stepCount, 28)
    XCTAssertTrue(info.isComplete)
    XCTAssertFalse(info.isWriterGone)
    XCTAssertEqual(info.chunkCount, 1)
    XCTAssertEqual(info.effectCount, 12)
    let rows = try reader.rows(from: 0, to: .max)
    XCTAssertEqual(rows.map(\.step), Array(0...28))
    // Origins 2 and up name effects in version 1 (2 and 3 are the observer and the
    // inspector in version 2).
    let effectIDs = Set(try reader.effects().map(\.id))
    for row in rows.dropFirst() {
      switch row.origin {
      case .user: continue
      case .effect(let id): XCTAssertTrue(effectIDs.contains(id), "step \(row.step)")
      default: XCTFail("step \(row.step): origin \(row.origin)")
      }
    }
    var state = try reader.state(at: 0)
    try reader.forEachStep(from: 1, to: .max) { row, payload in
      try TraceDiff.apply(try payload.changes(), to: &state)
      XCTAssertEqual(state.stableHash, row.stateHash, "step \(row.step)")
      return true
    }
    XCTAssertEqual(try reader.state(at: 28), state)
  }
}

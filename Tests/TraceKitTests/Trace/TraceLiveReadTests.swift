import Foundation
import TestSupport
import XCTest

@testable import TraceKit

final class TraceLiveReadTests: XCTestCase {
  func testReaderSeesAPartialChunkGrowAcrossFlushes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("live.rewind")
    var trace = SyntheticTrace()
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: trace.state)
    var states = [trace.state]
    func append(_ count: Int) throws {
      for _ in 0..<count {
        let (record, state) = trace.next()
        try writer.append(record, state: state)
        states.append(state)
      }
    }
    try append(4)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.lastStep(), 0)  // steps 1…4 are not committed yet

    try writer.flush()
    XCTAssertEqual(try reader.lastStep(), 4)
    XCTAssertEqual(try reader.state(at: 4), states[4])  // caches chunk 1 holding steps 0…4

    try append(3)
    try writer.flush()  // rewrites chunk 1, now holding steps 0…7
    XCTAssertEqual(try reader.rows(from: 5, to: 10).map(\.step), [5, 6, 7])
    XCTAssertEqual(try reader.state(at: 7), states[7])
    XCTAssertEqual(try reader.action(at: 6), SyntheticTraceStep(6).action)
    XCTAssertFalse(try reader.info().isComplete)

    try writer.close()
    reader.refresh()
    XCTAssertTrue(try reader.info().isComplete)
    XCTAssertEqual(try reader.info().chunkCount, 1)
  }
}

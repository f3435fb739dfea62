import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Reading states around a gap (steps the recorder dropped) that lies inside one chunk.
final class TraceGapReadTests: XCTestCase {
  let metadata = TraceMetadata(
    rootReducer: "AppFeature", stateType: "AppFeature.State", actionType: "AppFeature.Action",
    keyframeInterval: 100, extra: [:])

  func state(_ todos: Int) -> TraceValue {
    .object([TraceField("todos", .array((0..<todos).map { .string("t\($0 + 1)") }))])
  }

  /// Steps 1…5 and 8…10 each append one todo; 6 and 7 are dropped, so step 8's diff inserts at
  /// index 7, which only the keyframe stored at step 8 can follow. All lines share chunk 0.
  func writeTraceWithGap(at path: String) throws {
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    for step in [1, 2, 3, 4, 5, 8, 9, 10] {
      let insert = TraceChange.insert(
        TracePath([.key("todos"), .index(step - 1)]), .string("t\(step)"))
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step), wallTime: Double(step), origin: .user,
          actionPath: "add", action: .null, changes: [insert], changedPaths: ["todos"],
          stateHash: state(step).stableHash, reducerNanos: 1),
        state: state(step))
    }
    try writer.close()
  }

  func testStateAfterAGapStartsFromItsKeyframeNotFromTheCachedState() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("gap.rewind")
    try writeTraceWithGap(at: path)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().gaps, [TraceGap(afterStep: 5, dropped: 2)])
    // `diff 5 8`: the state before the gap is cached, then the one after it is asked for.
    XCTAssertEqual(try reader.state(at: 5), state(5))
    XCTAssertEqual(try reader.state(at: 8), state(8))
    XCTAssertEqual(try reader.state(at: 10), state(10))
    XCTAssertEqual(try reader.state(at: 4), state(4))
    XCTAssertEqual(try reader.state(at: 9), state(9))
  }
}

import TraceKit
import XCTest

@testable import TraceRecorder

/// Asserts that a step's incremental encoding is the whole encoder's `whole`: the same tree,
/// the same stable hash, and the same keyframe JSON written from the cached parts.
///
/// ```swift
/// let result = try encoder.encode(state)
/// assertEncodesAsWhole(result, try TraceValueEncoder().encode(state), step: 3)
/// ```
func assertEncodesAsWhole(
  _ result: IncrementalEncoder.Result, _ whole: TraceValue, step: Int,
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(result.value, whole, "step \(step)", file: file, line: line)
  XCTAssertEqual(result.hash, whole.stableHash, "step \(step)", file: file, line: line)
  var json: [UInt8] = []
  whole.writeJSON(into: &json)
  XCTAssertEqual(
    result.json, json, "step \(step): the keyframe JSON from cached parts", file: file,
    line: line)
  // Written in place when it fits its room, copied out when it outgrows it: the same bytes,
  // with room for the trace writer's newline either way.
  for capacity in [16, json.count] {
    let written = result.json(capacity: capacity)
    XCTAssertEqual(written, json, "step \(step), capacity \(capacity)", file: file, line: line)
    XCTAssertGreaterThan(written.capacity, written.count, "step \(step)", file: file, line: line)
  }
}

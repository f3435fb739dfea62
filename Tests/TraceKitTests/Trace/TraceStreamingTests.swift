import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `TraceReader.forEachStep`: every step's row and payload in order, across chunks and gaps.
final class TraceStreamingTests: XCTestCase {
  let metadata = TraceMetadata(
    rootReducer: "AppFeature", stateType: "AppFeature.State", actionType: "AppFeature.Action",
    keyframeInterval: 4, extra: [:])

  func state(_ count: Int) -> TraceValue {
    .object([TraceField("count", .int(Int64(count)))])
  }

  /// Steps 1…12 without 6 and 7 (dropped); a flush after steps 3 and 9 ends a chunk there.
  func writeTrace(at path: String) throws {
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    for step in [1, 2, 3, 4, 5, 8, 9, 10, 11, 12] {
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step), wallTime: Double(step), origin: .user,
          actionPath: "add", action: .enumCase("add", [TraceField("_0", .int(Int64(step)))]),
          changes: [.set(TracePath([.key("count")]), .int(Int64(step)))],
          changedPaths: ["count"], stateHash: state(step).stableHash, reducerNanos: 1,
          dependencies: step == 9 ? [DependencyRead(key: "uuid", value: .string("u9"))] : []),
        state: state(step))
      if step == 3 || step == 9 { try writer.flush() }
    }
    try writer.close()
  }

  func testForEachStepHandsOutEveryRowWithItsOwnPayloadAcrossChunks() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeTrace(at: path)
    let reader = try TraceReader(path: path)
    var seen: [String] = []
    try reader.forEachStep(from: 0, to: .max) { row, payload in
      XCTAssertEqual(payload.step, row.step)
      let changes = try payload.changes()
      let deps = try payload.dependencies().map { "\($0.key)=\($0.value)" }
      seen.append("\(row.step) \(try payload.action()) \(changes.count) \(deps)")
      return true
    }
    XCTAssertEqual(
      seen,
      ["0 nil 0 []"]
        + [1, 2, 3, 4, 5].map { "\($0) .add(\($0)) 1 []" }
        + ["8 .add(8) 1 []", "9 .add(9) 1 [\"uuid=\\\"u9\\\"\"]"]
        + [10, 11, 12].map { "\($0) .add(\($0)) 1 []" })
  }

  /// Payloads kept past their step and parsed later with a path cache of their own (what
  /// `inspector replay`'s checking thread does with the lines its reading thread hands over)
  /// read the same changes.
  func testPayloadsParsedLaterWithTheirOwnCacheReadTheSameChanges() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeTrace(at: path)
    let reader = try TraceReader(path: path)
    var kept: [(step: Int, payload: TraceReader.StepPayload, changes: [TraceChange])] = []
    try reader.forEachStep(from: 1, to: .max) { row, payload in
      kept.append((row.step, payload, try payload.changes()))
      return true
    }
    let paths = TraceReader.PathCache()
    let parsed = kept.map { try? $0.payload.changes(cachingPathsIn: paths) }
    XCTAssertEqual(kept.map(\.step), [1, 2, 3, 4, 5, 8, 9, 10, 11, 12])
    XCTAssertEqual(parsed, kept.map(\.changes))
    XCTAssertEqual(
      parsed.map { $0?.first },
      kept.map { .set(TracePath([.key("count")]), .int(Int64($0.step))) })
  }

  func testForEachStepStartsMidChunkAndStopsWhenTheBodySaysSo() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeTrace(at: path)
    let reader = try TraceReader(path: path)
    var changes: [String] = []
    try reader.forEachStep(from: 5, to: 11) { row, payload in
      for case .set(let path, let value) in try payload.changes() {
        changes.append("\(path) = \(value)")
      }
      return row.step < 10
    }
    XCTAssertEqual(changes, ["count = 5", "count = 8", "count = 9", "count = 10"])
  }

  /// One array reused for every step's changes (what `inspector replay` parses into) holds
  /// exactly that step's changes: a step with more changes than the last, fewer, none, each
  /// kind of change, a value the direct reader does not read (an object). The rows alternate
  /// three action paths, so the reader's two remembered paths are passed over and swapped.
  func testChangesParsedIntoOneReusedArrayAreEachStepsOwn() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let tags = TracePath([.key("tags")])
    let steps: [(action: String, changes: [TraceChange])] = [
      ("plus", [.set(TracePath([.key("count")]), .int(1))]),
      (
        "tag",
        [
          .insert(TracePath([.key("tags"), .index(0)]), .string("a")),
          .insert(TracePath([.key("tags"), .index(1)]), .string("b \"quoted\"")),
          .set(TracePath([.key("count")]), .int(2)),
        ]
      ),
      ("plus", []),
      ("reset", [.set(tags, .array([])), .remove(TracePath([.key("note")]))]),
      ("tag", [.set(TracePath([.key("note")]), .object([TraceField("by", .string("x"))]))]),
      ("plus", [.set(TracePath([.key("count")]), .int(-3))]),
    ]
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    for (offset, step) in steps.enumerated() {
      try writer.append(
        StepRecord(
          step: offset + 1, monotonicNanos: UInt64(offset + 1), wallTime: Double(offset + 1),
          origin: .user, actionPath: step.action, action: .enumCase(step.action, []),
          changes: step.changes, changedPaths: ["count"], stateHash: UInt64(offset),
          reducerNanos: 1, dependencies: []),
        state: state(offset))
    }
    try writer.close()
    let reader = try TraceReader(path: path)
    let paths = TraceReader.PathCache()
    var reused: [TraceChange] = [.remove(TracePath([.key("left over")]))]
    var actions: [String] = []
    var parsed: [[TraceChange]] = []
    try reader.forEachStep(from: 1, to: .max) { row, payload in
      try payload.changes(cachingPathsIn: paths, into: &reused)
      XCTAssertEqual(reused, try payload.changes())
      actions.append(row.actionPath)
      parsed.append(reused)
      return true
    }
    XCTAssertEqual(actions, ["plus", "tag", "plus", "reset", "tag", "plus"])
    XCTAssertEqual(parsed, steps.map(\.changes))
  }
}

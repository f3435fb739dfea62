import Foundation
import TestSupport
import XCTest

@testable import InspectorKit
@testable import TraceKit

/// `export`'s steps written by two threads in blocks: on whole traces, on a trace with a
/// recorded gap and on traces damaged row by row, the text and the error that ends it are
/// exactly what one thread writes, whatever the block size.
final class ExportStepsTests: XCTestCase {
  /// A small feature's state: a counter, a list that keeps its last four entries, a nested
  /// object changed now and then.
  func state(_ step: Int) -> TraceValue {
    .object([
      TraceField("count", .int(Int64(step))),
      TraceField(
        "recent",
        .array(
          (max(0, step - 3)...step).filter { $0 % 2 == 0 }.map { .string("entry \($0)") })),
      TraceField(
        "settings",
        .object([
          TraceField("volume", .int(Int64(step / 7 % 11))),
          TraceField("muted", .bool(step / 40 % 2 == 1)),
        ])),
    ])
  }

  /// Steps 1…`steps` without `dropped`, keyframes every 32 steps, chunks ended at a few
  /// steps, actions with payloads that repeat and payloads that do not.
  func writeTrace(at path: String, steps: Int, dropped: ClosedRange<Int>? = nil) throws {
    let metadata = TraceMetadata(
      rootReducer: "Player", stateType: "Player.State", actionType: "Player.Action",
      keyframeInterval: 32, extra: [:])
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    var previous = state(0)
    for step in 1...steps where dropped?.contains(step) != true {
      let next = state(step)
      let (changes, paths) = TraceDiff.changesAndPaths(from: previous, to: next)
      let name = step % 3 == 0 ? "note" : ["tick", "volume"][step % 2]
      let action: TraceValue =
        step % 3 == 0 ? .enumCase(name, [TraceField("", .string("note \(step)"))]) : .enumCase(name, [])
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_000 + Double(step) / 8,
          origin: step % 5 == 0 ? .send(step: step - 1) : .user,
          actionPath: name, action: action, changes: changes,
          changedPaths: paths.map(\.description), stateHash: next.stableHash,
          reducerNanos: 10),
        state: next)
      previous = next
      if [50, 111, 230].contains(step) { try writer.flush() }
    }
    try writer.close()
  }

  /// What `write` wrote and the message of the error that ended it (nil: none).
  func export(
    _ path: String, from: Int = 0, to: Int, blockSize: Int = ExportSteps.blockSize,
    parallel: Bool
  ) throws -> (text: String, wroteAny: Bool?, error: String?) {
    let source = try TraceFileSource(path: path)
    var text = ""
    do throws(InspectorError) {
      let wroteAny = try ExportSteps.write(
        source, from: from, to: to, blockSize: blockSize, parallel: parallel, out: &text)
      return (text, wroteAny, nil)
    } catch {
      return (text, nil, error.message)
    }
  }

  func testTwoThreadsWriteWhatOneWritesAtAnyBlockSize() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("player.rewind")
    try writeTrace(at: path, steps: 300)
    let one = try export(path, to: 300, parallel: false)
    XCTAssertNil(one.error)
    XCTAssertEqual(one.wroteAny, true)
    XCTAssertEqual(one.text.split(separator: "\n").count, 300)
    XCTAssertTrue(one.text.hasPrefix("\n{\"step\":1,\"nanos\":1000,\"wallTime\":1000.125,"))
    XCTAssertEqual(
      one.text.split(separator: "\n").last,
      #"{"step":300,"nanos":300000,"wallTime":1037.5,"origin":"send:299","actionPath":"note","changedPaths":["count","recent[0]","recent[1]"],"stateHash":"b169dc055467827c","reducerNanos":10,"action":{"$case":"note","":"note 300"},"changes":[{"op":"set","path":"count","value":300},{"op":"set","path":"recent[0]","value":"entry 298"},{"op":"set","path":"recent[1]","value":"entry 300"}]}"#)
    for blockSize in [1, 2, 3, 7, 64, 149, 150] {
      let two = try export(path, to: 300, blockSize: blockSize, parallel: true)
      XCTAssertNil(two.error, "block size \(blockSize)")
      XCTAssertEqual(two.wroteAny, true, "block size \(blockSize)")
      XCTAssertEqual(two.text, one.text, "block size \(blockSize)")
    }
    // A range that starts and ends inside blocks, and one too short for two threads.
    let middle = try export(path, from: 41, to: 260, parallel: false)
    XCTAssertEqual(middle.text.split(separator: "\n").count, 219)
    XCTAssertEqual(try export(path, from: 41, to: 260, blockSize: 5, parallel: true).text, middle.text)
    let short = try export(path, from: 290, to: 300, parallel: false)
    XCTAssertEqual(try export(path, from: 290, to: 300, blockSize: 5, parallel: true).text, short.text)
    let none = try export(path, from: 300, to: 300, blockSize: 1, parallel: true)
    XCTAssertEqual(none.text, "")
    XCTAssertEqual(none.wroteAny, false)
  }

  func testARecordedGapIsWrittenAsOneThreadWritesIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("gapped.rewind")
    try writeTrace(at: path, steps: 300, dropped: 100...102)
    let one = try export(path, to: 300, parallel: false)
    XCTAssertNil(one.error)
    XCTAssertEqual(one.text.split(separator: "\n").count, 297)
    XCTAssertTrue(one.text.contains("\"step\":99,"))
    XCTAssertFalse(one.text.contains("\"step\":100,"))
    XCTAssertTrue(one.text.contains("\"step\":103,"))
    for blockSize in [1, 3, 10, 33, 100, 101] {
      XCTAssertEqual(
        try export(path, to: 300, blockSize: blockSize, parallel: true).text, one.text,
        "block size \(blockSize)")
    }
  }

  /// Every damage `TraceCorruption` makes, on 100 variants: the same text, the same
  /// error, at block sizes that put block ends before, on and after the damaged rows.
  func testADamagedTraceEndsWhereAndAsOneThreadEndsIt() throws {
    let directory = try TemporaryDirectory()
    let base = directory.path("base.rewind")
    try writeTrace(at: base, steps: 120)
    var errors = 0
    var differing: [String] = []
    for seed in UInt64(0)..<100 {
      let path = directory.path("v\(seed).rewind")
      try FileManager.default.copyItem(atPath: base, toPath: path)
      let edits = try TraceCorruption(seed: seed).apply(to: path)
      guard let one = try? export(path, to: 120, parallel: false) else { continue }
      if one.error != nil { errors += 1 }
      for blockSize in [7, 40] {
        let two = try export(path, to: 120, blockSize: blockSize, parallel: true)
        if two.text != one.text || two.error != one.error || two.wroteAny != one.wroteAny {
          differing.append(
            "seed \(seed) (\(edits)), block size \(blockSize): \(two.error ?? "no error") "
              + "against \(one.error ?? "no error")")
        }
      }
      try FileManager.default.removeItem(atPath: path)
    }
    XCTAssertEqual(differing, [])
    // The variants reach the steps: 30 of them end the export with an error.
    XCTAssertEqual(errors, 30)
  }

  func testTheCommandWritesALongTraceWithTwoThreadsAsOneWouldWriteIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("long.rewind")
    let steps = 2 * ExportSteps.blockSize + 700
    try writeTrace(at: path, steps: steps)
    let inspector = Inspector(
      terminal: FixedTerminal(width: 80, colour: false), interruption: .never,
      open: { path throws(InspectorError) in try TraceFileSource(path: path) })
    var out = ""
    var err = ""
    XCTAssertEqual(inspector.run(["export", path], out: &out, err: &err), 0)
    XCTAssertEqual(err, "")
    let one = try export(path, to: steps, parallel: false)
    let start = try XCTUnwrap(out.range(of: ",\n\"steps\":["))
    let end = try XCTUnwrap(out.range(of: "\n],\n\"effects\":", options: .backwards))
    XCTAssertEqual(String(out[start.upperBound..<end.lowerBound]), one.text)
    XCTAssertEqual(one.text.split(separator: "\n").count, steps)
  }
}

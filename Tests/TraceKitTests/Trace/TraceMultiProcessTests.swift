import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Tests with a real second process: `trace-writer-child`, built by the package.
final class TraceMultiProcessTests: XCTestCase {
  func childPath() throws -> String {
    try BuiltProducts.executable("trace-writer-child")
  }

  /// The states the child writes, regenerated here: the synthetic trace is deterministic.
  func expectedStates(through last: Int) -> [TraceValue] {
    var trace = SyntheticTrace()
    var states = [trace.state]
    while trace.step < last { states.append(trace.next().state) }
    return states
  }

  func committedStep(_ line: String) -> Int? {
    line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
  }

  func testKilledWriterLeavesEveryCommittedStepReadable() throws {
    let child = try childPath()
    var random = SplitMix(seed: 2026)
    for run in 0..<4 {
      let directory = try TemporaryDirectory()
      let path = directory.path("crash.rewind")
      let flushEvery = Int(1 + random.next() % 200)
      let threshold = Int(100 + random.next() % 3_000)
      let process = try ChildProcess(
        executable: child, arguments: [path, "1000000", String(flushEvery)])
      _ = try process.waitForLine(timeout: 120) { (self.committedStep($0) ?? 0) >= threshold }
      usleep(UInt32(random.next() % 20_000))
      process.kill()
      let committed = process.receivedLines.compactMap(committedStep).max() ?? 0

      let reader = try TraceReader(path: path)
      let info = try reader.info()
      XCTAssertFalse(info.isComplete, "run \(run)")
      XCTAssertTrue(info.isWriterGone, "run \(run): the writer died with its process")
      let last = try reader.lastStep()
      XCTAssertGreaterThanOrEqual(last, committed, "run \(run): a committed step was lost")
      let states = expectedStates(through: last)
      XCTAssertEqual(try reader.rows(from: 0, to: .max).map(\.step), Array(0...last))
      for step in 0...last {
        XCTAssertEqual(try reader.state(at: step), states[step], "run \(run), step \(step)")
      }
      XCTAssertEqual(try reader.action(at: last), SyntheticTraceStep(last).action)
    }
  }

  func testReaderInAnotherProcessSeesEachNewCommit() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("live.rewind")
    let process = try ChildProcess(
      executable: try childPath(), arguments: [path, "5", "1", "wait"])
    _ = try process.waitForLine(timeout: 120) { $0 == "committed 1" }
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.lastStep(), 1)
    XCTAssertFalse(try reader.info().isComplete)
    XCTAssertEqual(try reader.info().isWriterAlive, true)
    let states = expectedStates(through: 5)
    for step in 2...5 {
      process.send("go")
      let deadline = Date().addingTimeInterval(120)
      while try reader.lastStep() < step, Date() < deadline { usleep(1_000) }
      XCTAssertEqual(try reader.lastStep(), step)
      XCTAssertEqual(try reader.state(at: step), states[step])
    }
    process.send("go")
    XCTAssertEqual(process.waitForExit(), 0)
    reader.refresh()
    XCTAssertTrue(try reader.info().isComplete)
    XCTAssertFalse(try reader.info().isWriterGone)
    XCTAssertEqual(try reader.effects().count, 0)
  }

  func testTheTraceOfAKilledWriterCopiedWithoutItsLogNamesTheLog() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("killed.rewind")
    let process = try ChildProcess(
      executable: try childPath(), arguments: [path, "1000000", "50"])
    _ = try process.waitForLine(timeout: 120) { (self.committedStep($0) ?? 0) >= 500 }
    process.kill()
    XCTAssertTrue(try TraceReader(path: path).info().isWriterGone)
    let copy = try TemporaryDirectory()
    let alone = copy.path("killed.rewind")
    try FileManager.default.copyItem(atPath: path, toPath: alone)
    XCTAssertThrowsError(try TraceReader(path: alone)) { error in
      XCTAssertEqual(
        "\(error)",
        "\(alone): the trace was not closed by its writer and its last commits are in "
          + "'\(alone)-wal', which is not beside it (copy the -wal file with the trace)")
    }
    // With its log, the copy reads.
    try FileManager.default.copyItem(atPath: path + "-wal", toPath: alone + "-wal")
    XCTAssertGreaterThanOrEqual(try TraceReader(path: alone).lastStep(), 500)
  }
}

/// The record of one synthetic step.
func SyntheticTraceStep(_ step: Int) -> StepRecord {
  var trace = SyntheticTrace()
  var record = trace.next().record
  while record.step < step { record = trace.next().record }
  return record
}

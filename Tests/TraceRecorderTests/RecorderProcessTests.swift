import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Recordings in a real child process (`recorder-test-child`): killed, or out of disk space.
final class RecorderProcessTests: XCTestCase {
  func testKilledRecordingLeavesATraceThatReplays() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("killed.rewind")
    let child = try ChildProcess(
      executable: try BuiltProducts.executable("recorder-test-child"), arguments: ["kill", path])
    _ = try child.waitForLine(timeout: 120) { $0 == "sent 2000" }
    // Wait until a commit holds a few hundred steps, so the kill lands mid-recording.
    var committed = 0
    for _ in 0..<12_000 where committed < 300 {
      if FileManager.default.fileExists(atPath: path), let reader = try? TraceReader(path: path) {
        committed = (try? reader.info().stepCount) ?? 0
      }
      if committed < 300 { usleep(10_000) }
    }
    XCTAssertGreaterThanOrEqual(committed, 300)
    child.kill()
    let reader = try TraceReader(path: path)
    let info = try reader.info()
    XCTAssertFalse(info.isComplete)
    XCTAssertGreaterThanOrEqual(info.stepCount, committed)
    XCTAssertEqual(
      try Replay(trace: path, reducer: ChildCounter()).run(), .matched(steps: info.stepCount))
  }

  func testWriteErrorMidRecordingReportsOnceAndTheAppKeepsRunning() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("full.rewind")
    // The child limits its own files to 256 KiB (RLIMIT_FSIZE), far less than its 20,000 steps
    // need, so a write fails mid-recording as on a full disk.
    let child = try ChildProcess(
      executable: try BuiltProducts.executable("recorder-test-child"), arguments: ["fill", path])
    _ = try child.waitForLine(timeout: 300) { $0.hasPrefix("done") }
    let lines = child.receivedLines
    let issues = lines.filter { $0.hasPrefix("issue: ") }
    XCTAssertEqual(issues.count, 1, "\(lines)")
    let issue = try XCTUnwrap(issues.first)
    XCTAssertEqual(lines.last, "done count=200010000 stopped=true")
    // What was committed before the failure is a trace that replays, and the report names
    // its last step whichever write failed (a step's, or a timed commit's).
    let reader = try TraceReader(path: path)
    let steps = try reader.info().stepCount
    XCTAssertTrue(issue.hasPrefix("issue: Recording to \(path) stopped: \(path): "), issue)
    XCTAssertTrue(
      issue.hasSuffix(
        ". The trace holds steps 0…\(steps) (its last commit); the app keeps running "
          + "unrecorded."),
      issue)
    XCTAssertGreaterThan(steps, 0)
    XCTAssertLessThan(steps, 20_000)
    XCTAssertEqual(try Replay(trace: path, reducer: ChildCounter()).run(), .matched(steps: steps))
  }
}

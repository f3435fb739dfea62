import Foundation
import TestSupport
import XCTest

/// Each case runs in a process of its own; these run the built `rewind-bench` as `tools/bench`
/// does.
final class CaseProcessTests: XCTestCase {
  func testACaseRunsInItsOwnProcessAndItsResultReachesTheReportAndTheJSON() throws {
    let directory = try TemporaryDirectory()
    let output = try BuiltProducts.run(
      "rewind-bench",
      ["--quick", "--only", "trace.bytes-per-step", "--json", "out.json", "--keep"],
      in: directory.url)
    XCTAssertEqual(output.status, 0, output.err)
    XCTAssertEqual(output.err, "")
    let lines = output.out.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 5, output.out)
    XCTAssertTrue(lines[0].hasPrefix("rewind-bench: 1 cases, quick run, scratch /"), lines[0])
    XCTAssertTrue(lines[2].hasPrefix("trace.bytes-per-step.counter "), lines[2])
    XCTAssertTrue(lines[2].contains(" B/step "), lines[2])
    XCTAssertTrue(lines[2].contains("bytes for 20,000 steps (Recorder, Counter))"), lines[2])
    XCTAssertTrue(lines[3].hasPrefix("rewind-bench: "), lines[3])
    XCTAssertTrue(lines[3].hasSuffix(" of 1 targets met, 0 could not run"), lines[3])

    // The case ran in a process of its own: its directory is in the run's scratch directory,
    // and the result file it handed back has been read and removed.
    let scratch = String(lines[0].split(separator: " ").last!)
    XCTAssertEqual(lines[4], "rewind-bench: kept \(scratch)")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch),
      ["trace.bytes-per-step.counter"])
    var isDirectory: ObjCBool = false
    XCTAssertTrue(
      FileManager.default.fileExists(
        atPath: scratch + "/trace.bytes-per-step.counter", isDirectory: &isDirectory))
    XCTAssertTrue(isDirectory.boolValue)

    let data = try Data(contentsOf: directory.url.appendingPathComponent("out.json"))
    let entries = try XCTUnwrap(
      JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    XCTAssertEqual(entries.count, 1)
    XCTAssertEqual(entries[0]["name"] as? String, "trace.bytes-per-step.counter")
    XCTAssertEqual(entries[0]["unit"] as? String, "B/step")
    XCTAssertEqual(entries[0]["target"] as? Double, 32)
    XCTAssertNotNil(entries[0]["value"] as? Double)
    XCTAssertNil(entries[0]["error"])
  }

  func testACaseStillRunningAtTheTimeLimitIsStoppedAndReportedAsNotRun() throws {
    // The slow-app case paces 400 steps 5 ms apart: it cannot end within 0.2 s.
    let directory = try TemporaryDirectory()
    let output = try BuiltProducts.run(
      "rewind-bench",
      ["--quick", "--only", "trace.write-amplification", "--case-time-limit", "0.2"],
      in: directory.url)
    XCTAssertEqual(output.status, 1)
    let lines = output.out.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 4, output.out)
    XCTAssertEqual(
      lines[2],
      "trace.write-amplification.slow-app could not run: still running after 0.2 s, "
        + "so it was stopped")
    XCTAssertEqual(lines[3], "rewind-bench: 0 of 1 targets met, 1 could not run")
  }

  func testACaseProcessAskedForAnUnknownCaseWritesWhyAndExitsOne() throws {
    let directory = try TemporaryDirectory()
    let result = directory.url.appendingPathComponent("result.json").path
    let output = try BuiltProducts.run(
      "rewind-bench", ["--scratch", directory.url.path, "--child", "case", "no.such", result],
      in: directory.url)
    XCTAssertEqual(output.status, 1)
    XCTAssertEqual(output.out, "")
    XCTAssertEqual(
      try String(contentsOfFile: result, encoding: .utf8),
      #"{"error":"no case is named 'no.such'"}"#)
  }

  func testACaseProcessWithoutTheRunsDirectoryIsAUsageError() throws {
    let directory = try TemporaryDirectory()
    let output = try BuiltProducts.run(
      "rewind-bench", ["--child", "case", "trace.seek.1m", "r.json"], in: directory.url)
    XCTAssertEqual(output.status, 2)
    XCTAssertEqual(
      output.err, "rewind-bench child: usage: --scratch DIR --child case NAME RESULT\n")
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("r.json").path))
  }
}

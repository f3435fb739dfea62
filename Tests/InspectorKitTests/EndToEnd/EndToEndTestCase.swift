import Foundation
import TestSupport
import XCTest

/// Runs the built `inspector` on a trace and compares stdout, stderr and the exit status with
/// `Snapshots/<test>.txt`. The sample trace is written by the `inspector-test-writer` process;
/// any other trace (a committed fixture) can be passed instead.
class EndToEndTestCase: XCTestCase {
  var directory: TemporaryDirectory!
  var sample: URL!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory()
    sample = try writeSample(named: "sample.rewind")
  }

  override func tearDown() {
    directory = nil
  }

  /// Writes the deterministic sample session with the writer process.
  func writeSample(named name: String, _ options: [String] = []) throws -> URL {
    let written = try BuiltProducts.run(
      "inspector-test-writer", [name] + options, in: directory.url)
    XCTAssertEqual(written.status, 0, "inspector-test-writer failed: \(written.err)")
    return directory.url.appendingPathComponent(name)
  }

  /// Runs `inspector` in the trace's directory with `TRACE` in `arguments` replaced by the
  /// trace's file name, so messages hold no machine-specific path.
  func inspect(_ arguments: [String], trace: URL? = nil, environment: [String: String] = [:])
    throws -> BuiltProducts.Output
  {
    let trace = trace ?? sample!
    let name = trace.lastPathComponent
    var env = ["COLUMNS": "80"]
    for (key, value) in environment { env[key] = value }
    return try BuiltProducts.run(
      "inspector", arguments.map { $0 == "TRACE" ? name : $0 },
      in: trace.deletingLastPathComponent(), environment: env)
  }

  /// The transcript a snapshot holds: the command line, stdout, stderr and the exit status.
  static func transcript(_ arguments: [String], trace: String, _ output: BuiltProducts.Output)
    -> String
  {
    var text =
      "$ inspector "
      + arguments.map { $0 == "TRACE" ? trace : $0 }
      .joined(separator: " ") + "\n" + output.out
    if !output.err.isEmpty { text += "[stderr]\n" + output.err }
    return text + "[exit \(output.status)]\n"
  }

  func assertInspector(
    _ arguments: [String], trace: URL? = nil, named name: String = #function,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let trace = trace ?? sample!
    let output = try inspect(arguments, trace: trace)
    let snapshotName = name.hasSuffix("()") ? String(name.dropLast(2)) : name
    assertSnapshot(
      Self.transcript(arguments, trace: trace.lastPathComponent, output), named: snapshotName,
      in: snapshotDirectory(), file: file, line: line)
  }

  /// Expects exactly one line on stderr, nothing on stdout, and the status.
  func assertFails(
    _ arguments: [String], trace: URL? = nil, line expected: String, status: Int32 = 2,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let output = try inspect(arguments, trace: trace)
    XCTAssertEqual(output.err, expected + "\n", file: file, line: line)
    XCTAssertEqual(output.out, "", file: file, line: line)
    XCTAssertEqual(output.status, status, file: file, line: line)
  }

  func sqlite(_ trace: URL, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", trace.path, sql]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "sqlite3 failed on \(sql)")
  }
}

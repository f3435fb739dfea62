import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace is readable without this project: the stock `sqlite3` and `lz4` commands give
/// back every payload as JSON Lines (the setup script installs both commands).
final class TraceOpenFormatTests: XCTestCase {
  func run(_ command: String, _ arguments: [String], in directory: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(
      process.terminationStatus, 0,
      "`\(command) \(arguments.joined(separator: " "))` failed; is \(command) installed?")
    return String(decoding: data, as: UTF8.self)
  }

  func testChunkExtractedWithSqlite3DecodesWithLz4IntoJSONLines() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let states = try writeSyntheticTrace(at: path, steps: 700)

    // A chunk is one LZ4 frame, stored in one or more rows (parts) in step order.
    let written = try run(
      "sqlite3",
      [
        "t.rewind",
        "SELECT writefile('c.lz4', (SELECT group_concat(data, '') FROM "
          + "(SELECT data FROM chunks WHERE chunk = 0 ORDER BY first_step)))",
      ],
      in: directory.url.path)
    XCTAssertGreaterThan(Int(written.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 0)
    let text = try run("lz4", ["-dc", "c.lz4"], in: directory.url.path)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.last, "")  // every line ends with a newline

    let reader = try TraceReader(path: path)
    let range = try SQLiteConnection(path: path, mode: .readOnly)
      .scalarText("SELECT MIN(first_step) || ' ' || MAX(last_step) FROM chunks WHERE chunk = 0")
    let bounds = (range ?? "").split(separator: " ").compactMap { Int($0) }
    XCTAssertEqual(bounds.count, 2)
    XCTAssertEqual(lines.count - 1, bounds[1] - bounds[0] + 1)
    // A part's first line carries its step; the others follow the line before them.
    let partStarts = Set(
      try SQLiteConnection(path: path, mode: .readOnly)
        .scalarText("SELECT group_concat(first_step, ' ') FROM chunks WHERE chunk = 0")
        .map { $0.split(separator: " ").compactMap { Int($0) } } ?? [])
    XCTAssertGreaterThan(partStarts.count, 1)
    for (offset, line) in lines.dropLast().enumerated() {
      let step = bounds[0] + offset
      let value = try TraceValue(json: String(line))
      guard case .object(var fields) = value else { return XCTFail("line \(offset)") }
      if partStarts.contains(step) {
        XCTAssertEqual(fields.map(\.key).prefix(3), ["step", "action", "changes"])
        XCTAssertEqual(fields.removeFirst().value, .int(Int64(step)))
      }
      XCTAssertEqual(fields.map(\.key).prefix(2), ["action", "changes"], "line \(offset)")
      guard fields.count >= 2 else { return XCTFail("line \(offset)") }
      XCTAssertEqual(fields[0].value, try reader.action(at: step))
      XCTAssertEqual(
        fields[1].value, .array(try reader.changes(at: step).map(\.jsonValue)))
    }

    _ = try run(
      "sqlite3", ["t.rewind", "SELECT writefile('k.lz4', data) FROM keyframes WHERE step = 512"],
      in: directory.url.path)
    let keyframe = try run("lz4", ["-dc", "k.lz4"], in: directory.url.path)
    XCTAssertEqual(keyframe, states[512].jsonString + "\n")

    let row = try run(
      "sqlite3",
      [
        "t.rewind",
        "SELECT step, origin, action_path, changed_paths, chunk FROM step_index WHERE step = 5",
      ],
      in: directory.url.path)
    XCTAssertEqual(
      row,
      "5|effect:E621E1F8-C36C-495A-93FC-0C247A3E6E5F|loadingChanged|[\"isLoading\",\"label\"]|0\n")
  }

  /// `inspector open` asks for the effects of the step under its cursor at every move: the
  /// query goes through the index, not through the whole table.
  func testTheEffectsAStepStartedAreFoundThroughTheIndex() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    _ = try writeSyntheticTrace(at: path, steps: 10)
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    let plan = try database.prepare(
      "EXPLAIN QUERY PLAN SELECT id FROM effects WHERE started_by_step = 3 ORDER BY rowid")
    var details: [String] = []
    while try plan.step() { details.append(plan.text(at: 3)) }
    XCTAssertEqual(details, ["SEARCH effects USING INDEX effects_by_step (started_by_step=?)"])
  }
}

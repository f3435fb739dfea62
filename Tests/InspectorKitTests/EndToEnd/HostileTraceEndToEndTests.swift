import Foundation
import TestSupport
import XCTest

/// Traces edited row by row, as someone crafting a bug report could: each once trapped the
/// built inspector or made it say something untrue (issue 13). Each now gives correct output
/// or exactly one line that says what is wrong and where.
final class HostileTraceEndToEndTests: EndToEndTestCase {
  /// A copy of the sample trace, edited.
  func hostile(_ name: String, _ edit: (TraceEditor) throws -> Void) throws -> URL {
    let copy = directory.url.appendingPathComponent(name)
    try FileManager.default.copyItem(at: sample, to: copy)
    let editor = try TraceEditor(path: copy.path)
    try edit(editor)
    editor.close()
    return copy
  }

  /// Expects `arguments` on a copy of the sample trace named `name`, edited by `sql`, to fail
  /// with exactly `line`.
  func assertFails(
    _ arguments: [String], on name: String, afterSQL sql: String, line: String,
    file: StaticString = #filePath, line number: UInt = #line
  ) throws {
    let trace = try hostile(name) { editor in try editor.execute(sql) }
    try assertFails(arguments, trace: trace, line: line, file: file, line: number)
  }

  // MARK: No trap

  func testDiffContextBeyondEverySiblingShowsThemAll() throws {
    let huge = try inspect(["diff", "TRACE", "3", "--context", "9223372036854775807"])
    let all = try inspect(["diff", "TRACE", "3", "--context", "1000"])
    XCTAssertEqual(huge.status, 0, huge.err)
    XCTAssertEqual(huge, all)
    XCTAssertTrue(huge.out.contains("    count: 1,\n"), huge.out)
  }

  func testGapsOfInt64MaxDroppedStepsAreOneLine() throws {
    let trace = try hostile("gaps.rewind") { editor in
      try editor.execute(
        "INSERT INTO gaps VALUES (3, 9223372036854775807), (5, 9223372036854775807)")
    }
    let line =
      "inspector: gap record is damaged: dropped is 9223372036854775807, outside "
      + "1…281474976710656 (gaps.rewind, step 3)"
    try assertFails(["info", "TRACE"], trace: trace, line: line)
    try assertFails(["replay", "TRACE"], trace: trace, line: line)
  }

  func testGapOfANegativeCountIsOneLine() throws {
    try assertFails(
      ["replay", "TRACE"], on: "negative.rewind", afterSQL: "INSERT INTO gaps VALUES (3, -5)",
      line: "inspector: gap record is damaged: dropped is -5, outside 1…281474976710656 "
        + "(negative.rewind, step 3)")
  }

  func testOneHugeGapIsOneLine() throws {
    try assertFails(
      ["diff", "TRACE", "2"], on: "huge.rewind",
      afterSQL: "INSERT INTO gaps VALUES (1, 9223372036854775807)",
      line: "inspector: gap record is damaged: dropped is 9223372036854775807, outside "
        + "1…281474976710656 (huge.rewind, step 1)")
  }

  func testGapThatClaimsRecordedStepsIsOneLine() throws {
    try assertFails(
      ["info", "TRACE"], on: "claims.rewind", afterSQL: "INSERT INTO gaps VALUES (1, 5)",
      line: "inspector: gap record is damaged: it says steps 2…6 were dropped, but step 2 is "
        + "recorded (claims.rewind, step 1)")
  }

  func testLastStepRenumberedToInt64MaxIsOneLine() throws {
    let trace = try hostile("renumbered.rewind") { editor in
      try editor.execute(
        """
        UPDATE steps SET step = 9223372036854775807 WHERE step = 12;
        UPDATE chunks SET last_step = 9223372036854775807 WHERE first_step = 0;
        """)
      try editor.editChunkLines(firstStep: 0) { lines in
        lines[12] = lines[12].replacingOccurrences(
          of: #"{"step":12,"#, with: #"{"step":9223372036854775807,"#)
      }
    }
    let what = "index row is damaged: step 9223372036854775807 is outside 0…281474976710656"
    for command in [
      ["log", "TRACE"], ["log", "TRACE", "--json"], ["log", "TRACE", "--from", "5"],
      ["replay", "TRACE"],
    ] {
      try assertFails(command, trace: trace, line: "inspector: \(what) (renumbered.rewind)")
    }
    // `follow` waits for a trace that is not there yet, never for a damaged one: with a wait
    // of a minute it still answers at once.
    for command in [["follow", "TRACE"], ["follow", "TRACE", "--from-start"]] {
      try assertFails(
        command + ["--wait", "60"], trace: trace, line: "inspector: \(what) (renumbered.rewind)")
    }
  }

  func testColumnsBeyondTheWidestWidthIsTheWidestWidth() throws {
    let widest = try inspect(
      ["effects", "TRACE", "--timeline"], environment: ["COLUMNS": "1024"])
    XCTAssertEqual(widest.status, 0, widest.err)
    XCTAssertEqual(widest.out.split(separator: "\n").map(\.count).max(), 1024)
    for columns in ["9223372036854775807", "100000000", "1025"] {
      let output = try inspect(
        ["effects", "TRACE", "--timeline"], environment: ["COLUMNS": columns])
      XCTAssertEqual(output, widest, "COLUMNS=\(columns)")
    }
    let piped = try inspect(["effects", "TRACE", "--timeline"], environment: ["COLUMNS": "80"])
    for columns in ["0", "-3", "wide", ""] {
      let output = try inspect(
        ["effects", "TRACE", "--timeline"], environment: ["COLUMNS": columns])
      XCTAssertEqual(output, piped, "COLUMNS=\(columns) is ignored: piped output is 80 wide")
    }
  }

  // MARK: No misleading answer

  func testDeletedIndexRowIsDamageNotADroppedStep() throws {
    let trace = try hostile("deleted.rewind") { editor in
      try editor.execute("DELETE FROM steps WHERE step = 5")
    }
    let what =
      "step 5 is missing from the index, and no gap records it as dropped (rows were deleted)"
    let log = try inspect(["log", "TRACE"], trace: trace)
    XCTAssertEqual(log.status, 2)
    XCTAssertEqual(log.err, "inspector: \(what) (deleted.rewind, step 5)\n")
    XCTAssertEqual(log.out.split(separator: "\n").count, 5, log.out)
    XCTAssertFalse(log.out.contains("dropped"), log.out)
    try assertFails(
      ["replay", "TRACE"], trace: trace,
      line: "inspector: replay check failed: \(what) (deleted.rewind, step 5)", status: 1)
    try assertFails(
      ["show", "TRACE", "7"], trace: trace, line: "inspector: \(what) (deleted.rewind, step 5)")
  }

  func testUserVersionMustAgreeWithTheFormatVersion() throws {
    try assertFails(
      ["info", "TRACE"], on: "user-version.rewind", afterSQL: "PRAGMA user_version = 7",
      line: "inspector: metadata is damaged: the header's user_version is 7, but "
        + "format_version is 3 (user-version.rewind)")
  }

  func testAPartRowThatMiscountsItsLinesIsOneLineNamingTheChunk() throws {
    // The sample's chunk 0 is stored in two parts: step 0, then steps 1…12.
    try assertFails(
      ["show", "TRACE", "5"], on: "step-count.rewind",
      afterSQL: "UPDATE chunks SET step_count = 11 WHERE first_step = 1",
      line: "inspector: payload chunk is damaged: part 1…12 holds 12 lines, but its step_count "
        + "is 11 (step-count.rewind, step 5, chunk 0)")
  }

  func testTimesThatAreNotIntegersAreDamageNotZero() throws {
    let cases: [(String, String)] = [
      ("mono_ns = NULL", "mono_ns is NULL, not an integer"),
      ("mono_ns = 'soon'", "mono_ns is 'soon', not an integer"),
      ("mono_ns = -1", "mono_ns is -1, outside 0…9223372036854775807"),
      ("reducer_ns = NULL", "reducer_ns is NULL, not an integer"),
      ("reducer_ns = 2.5", "reducer_ns is 2.5, not an integer"),
    ]
    for (index, (assignment, what)) in cases.enumerated() {
      let trace = try hostile("times-\(index).rewind") { editor in
        try editor.allowNulls()
        try editor.execute("UPDATE steps SET \(assignment) WHERE step = 3")
      }
      try assertFails(
        ["show", "TRACE", "3"], trace: trace,
        line: "inspector: index row is damaged: \(what) (times-\(index).rewind, step 3)")
    }
  }

  /// A keyframe row at step 5, off the interval (the writer stores one only at a multiple of
  /// it or after a gap), holding step 0's state under step 5's hash: `show` starts from it and
  /// refuses it, so `replay`, which says whether the trace reads right, must check it too.
  func testAKeyframeOffTheIntervalIsCheckedByReplay() throws {
    let trace = try hostile("extra.rewind") { editor in
      try editor.execute(
        "INSERT INTO keyframes SELECT 5, (SELECT state_hash FROM steps WHERE step = 5), "
          + "raw_size, data FROM keyframes WHERE step = 0")
    }
    let shown = try inspect(["show", "TRACE", "5"], trace: trace)
    XCTAssertEqual(shown.status, 2, shown.err)
    try assertFails(
      ["replay", "TRACE"], trace: trace,
      line: "inspector: replay check failed: keyframe does not match its hash "
        + "(extra.rewind, step 5)", status: 1)
  }

  func testKeyframeIntervalBelowOneIsRefused() throws {
    for (index, value) in ["0", "-4", "every"].enumerated() {
      let trace = try hostile("interval-\(index).rewind") { editor in
        try editor.execute("UPDATE meta SET value = '\(value)' WHERE key = 'keyframe_interval'")
      }
      try assertFails(
        ["info", "TRACE"], trace: trace,
        line: "inspector: metadata is damaged: keyframe_interval is '\(value)', not a number "
          + "from 1 to 281474976710656 (interval-\(index).rewind)")
    }
  }

  func testMissingColumnIsNamedWithoutSQL() throws {
    try assertFails(
      ["log", "TRACE"], on: "column.rewind",
      afterSQL: "ALTER TABLE steps RENAME COLUMN reducer_ns TO reducer_time",
      line: "inspector: the 'steps' table has no 'reducer_ns' column (column.rewind)")
  }

  func testTreeTooDeepSaysSo() throws {
    func tree(depth: Int) -> String {
      var json = #"{"kind":"Reduce","typeName":"Leaf","children":[]}"#
      for _ in 0..<depth { json = #"{"kind":"Scope","typeName":"T","children":["# + json + "]}" }
      return json
    }
    let deep = try hostile("deep.rewind") { editor in
      try editor.run("UPDATE tree SET json = ?", [tree(depth: 300)])
    }
    try assertFails(
      ["tree", "TRACE"], trace: deep,
      line: "inspector: reducer tree is damaged: nested deeper than 128 levels (deep.rewind)")
    let deepest = try hostile("deepest.rewind") { editor in
      try editor.run("UPDATE tree SET json = ?", [tree(depth: 127)])
    }
    let output = try inspect(["tree", "TRACE"], trace: deepest)
    XCTAssertEqual(output.status, 0, output.err)
    XCTAssertEqual(output.out.split(separator: "\n").count, 128)
  }

  func testReadOnlyDirectoryWithALogButNoSharedMemorySaysWhatToDo() throws {
    let readOnly = directory.url.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
    // A crashed writer's files, copied without the `-shm` (as a bug report attaches them).
    let source = try hostile("live.rewind") { editor in
      try editor.execute(
        "PRAGMA journal_mode = WAL; UPDATE meta SET value = '0' WHERE key = 'complete'")
      for suffix in ["", "-wal"] {
        try FileManager.default.copyItem(
          atPath: editor.path + suffix,
          toPath: readOnly.appendingPathComponent("live.rewind" + suffix).path)
      }
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: source.path + "-wal"))
    let output = try ReadOnlyDirectory.run(
      try BuiltProducts.executable("inspector"), ["info", "live.rewind"], in: readOnly)
    XCTAssertEqual(
      output.err,
      "inspector: the trace's write-ahead log (live.rewind-wal) needs a live.rewind-shm file "
        + "beside it, and this read-only directory cannot hold one: copy the trace and "
        + "live.rewind-wal together to a writable directory and read the copy (live.rewind)\n")
    XCTAssertEqual(output.out, "")
    XCTAssertEqual(output.status, 2)
  }

  func testLogJSONThatFailsMidStreamStaysValidJSON() throws {
    let trace = try damagedActionAtStep7()
    let output = try inspect(["log", "TRACE", "--json"], trace: trace)
    XCTAssertEqual(output.status, 2)
    let error =
      "payload chunk is damaged: invalid trace JSON at byte 9: expected a string case name "
      + #"after "$case" (action.rewind, step 7, chunk 0)"#
    XCTAssertEqual(output.err, "inspector: \(error)\n")
    let document = try JSONSerialization.jsonObject(with: Data(output.out.utf8))
    let elements = try XCTUnwrap(document as? [[String: Any]])
    XCTAssertEqual(elements.count, 8)
    XCTAssertEqual(elements[6]["step"] as? Int, 6)
    XCTAssertEqual(elements[7] as? [String: String], ["error": error])
  }

  func testExportThatFailsMidStreamStaysValidJSON() throws {
    let trace = try damagedActionAtStep7()
    let output = try inspect(["export", "TRACE"], trace: trace)
    XCTAssertEqual(output.status, 2)
    let error =
      "payload chunk is damaged: invalid trace JSON at byte 9: expected a string case name "
      + #"after "$case" (action.rewind, step 7, chunk 0)"#
    XCTAssertEqual(output.err, "inspector: \(error)\n")
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
    XCTAssertEqual((document["steps"] as? [Any])?.count, 6)
    XCTAssertEqual(document["error"] as? String, error)
    XCTAssertNil(document["effects"])
  }

  /// The sample trace whose step 7 holds an action that is not JSON, in a valid LZ4 frame.
  func damagedActionAtStep7() throws -> URL {
    try hostile("action.rewind") { editor in
      try editor.editChunkLines(firstStep: 0) { lines in
        lines[7] = #"{"step":7,"action":{"$case":,"changes":[]}"#
      }
    }
  }

  func testMetadataKeysAreQuotedLikeValues() throws {
    let trace = try hostile("meta.rewind") { editor in
      try editor.execute(
        """
        INSERT INTO meta VALUES ('extra.steps', '999'), ('extra.pay' || char(8203) || 'pal', 'x');
        DELETE FROM meta WHERE key = 'extra.scenario';
        """)
    }
    let output = try inspect(["info", "TRACE"], trace: trace)
    XCTAssertEqual(output.status, 0, output.err)
    XCTAssertTrue(
      output.out.hasSuffix(
        """
        complete          yes
        "pay\\u{200B}pal"  "x"
        "steps"           "999"

        """), output.out)
  }

  func testVersionNamesTheTraceFormatsItReads() throws {
    let output = try inspect(["--version"])
    XCTAssertEqual(
      output,
      .init(
        out: "inspector 0.1.0 (Rewind), reads trace format versions 1, 2, 3\n", err: "",
        status: 0))
  }
}

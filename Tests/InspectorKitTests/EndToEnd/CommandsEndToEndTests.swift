import TestSupport
import XCTest

/// Every command, run as the built binary on the sample trace, against snapshot files.
final class CommandsEndToEndTests: EndToEndTestCase {
  func testHelp() throws { try assertInspector(["--help"]) }
  func testInfoHelp() throws { try assertInspector(["info", "--help"]) }
  func testLogHelp() throws { try assertInspector(["log", "--help"]) }
  func testShowHelp() throws { try assertInspector(["show", "--help"]) }
  func testDiffHelp() throws { try assertInspector(["diff", "--help"]) }
  func testTreeHelp() throws { try assertInspector(["tree", "--help"]) }
  func testEffectsHelp() throws { try assertInspector(["effects", "--help"]) }
  func testReplayHelp() throws { try assertInspector(["replay", "--help"]) }
  func testFollowHelp() throws { try assertInspector(["follow", "--help"]) }
  func testExportHelp() throws { try assertInspector(["export", "--help"]) }

  func testInfo() throws { try assertInspector(["info", "TRACE"]) }
  func testInfoJSON() throws { try assertInspector(["info", "TRACE", "--json"]) }

  func testLog() throws { try assertInspector(["log", "TRACE"]) }
  func testLogRange() throws { try assertInspector(["log", "TRACE", "--from", "3", "--to", "5"]) }
  func testLogGrep() throws { try assertInspector(["log", "TRACE", "--grep", "^todos\\."]) }
  func testLogPathMatchesChangesInsideAndAround() throws {
    try assertInspector(["log", "TRACE", "--path", "todos[id: 2]"])
  }
  func testLogOriginEffect() throws { try assertInspector(["log", "TRACE", "--origin", "effect"]) }
  func testLogLimit() throws {
    try assertInspector(["log", "TRACE", "--from", "2", "--limit", "2"])
  }
  func testLogJSON() throws { try assertInspector(["log", "TRACE", "--to", "2", "--json"]) }

  func testShow() throws { try assertInspector(["show", "TRACE", "9"]) }
  func testShowPath() throws {
    try assertInspector(["show", "TRACE", "9", "--path", "todos[id: 1]"])
  }
  func testShowJSON() throws {
    try assertInspector(["show", "TRACE", "4", "--path", "child", "--json"])
  }

  func testDiffAgainstPreviousStep() throws { try assertInspector(["diff", "TRACE", "4"]) }
  func testDiffBetweenTwoSteps() throws { try assertInspector(["diff", "TRACE", "1", "12"]) }
  func testDiffContext() throws { try assertInspector(["diff", "TRACE", "4", "--context", "1"]) }
  func testDiffPath() throws {
    try assertInspector(["diff", "TRACE", "0", "12", "--path", "child"])
  }
  func testDiffJSON() throws { try assertInspector(["diff", "TRACE", "10", "--json"]) }

  func testTree() throws { try assertInspector(["tree", "TRACE"]) }
  func testTreeJSON() throws { try assertInspector(["tree", "TRACE", "--json"]) }

  func testEffects() throws { try assertInspector(["effects", "TRACE"]) }
  func testEffectsCancelled() throws { try assertInspector(["effects", "TRACE", "--cancelled"]) }
  func testEffectsRunning() throws { try assertInspector(["effects", "TRACE", "--running"]) }
  func testEffectsStep() throws { try assertInspector(["effects", "TRACE", "--step", "8"]) }
  func testEffectsTimeline() throws { try assertInspector(["effects", "TRACE", "--timeline"]) }
  func testEffectsJSON() throws { try assertInspector(["effects", "TRACE", "--json"]) }

  func testReplay() throws { try assertInspector(["replay", "TRACE"]) }

  func testReplayReportsFirstMismatchWithItsDiffAndExits1() throws {
    let bad = try writeSample(named: "bad-hash.rewind", ["--wrong-hash", "6"])
    try assertInspector(["replay", "TRACE"], trace: bad)
  }

  func testExport() throws { try assertInspector(["export", "TRACE", "--format", "json"]) }
  func testExportRange() throws {
    try assertInspector(["export", "TRACE", "--from", "8", "--to", "9"])
  }

  func testRecordedEscapeSequenceIsPrintedEscaped() throws {
    for arguments in [
      ["show", "TRACE", "7"], ["log", "TRACE", "--from", "7", "--to", "7"],
      ["diff", "TRACE", "7"], ["show", "TRACE", "7", "--json"],
    ] {
      let output = try inspect(arguments, environment: ["COLUMNS": "200"])
      XCTAssertEqual(output.status, 0)
      XCTAssertFalse(output.out.contains("\u{1B}"), "raw escape in \(arguments)")
      XCTAssertTrue(
        output.out.contains(#"\u{1B}[31mALERT\u{1B}[0m"#)
          || output.out.contains(#"\u001b[31mALERT\u001b[0m"#), "\(arguments): \(output.out)")
    }
  }

  func testPipedLogWithoutColumnsKeepsWholeLinesAndColumnsStillCutsThem() throws {
    let arguments = ["log", "sample.rewind", "--from", "3", "--to", "3"]
    // No COLUMNS and stdout a pipe: a script or `grep` gets the whole line, like `git log`.
    let piped = try BuiltProducts.run(
      "inspector", arguments, in: directory.url, environment: [:])
    XCTAssertEqual(piped.status, 0)
    XCTAssertEqual(
      piped.out,
      "     3  00:00.375  user             todos.addTapped(title: \"Walk the dog\")"
        + "  → todos[id: 2]\n")
    let cut = try BuiltProducts.run(
      "inspector", arguments, in: directory.url, environment: ["COLUMNS": "80"])
    XCTAssertEqual(
      cut.out,
      "     3  00:00.375  user             todos.addTapped(title: \"Wa…)  → todos[id: 2]\n")
  }

  func testPipedOutputHasNoColourAndNoColorIsHonoured() throws {
    let output = try inspect(["diff", "TRACE", "4"])
    XCTAssertFalse(output.out.contains("\u{1B}"))
    let narrow = try inspect(
      ["log", "TRACE", "--from", "2", "--to", "2"],
      environment: ["COLUMNS": "40"])
    XCTAssertEqual(narrow.out, "     2  00:00.250  user             todos.add…\n")
  }
}

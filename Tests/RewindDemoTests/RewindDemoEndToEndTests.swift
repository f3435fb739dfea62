import Foundation
import TestSupport
import TraceKit
import XCTest

/// `rewind-demo` run as a built binary: its output, its exit status and the traces it writes.
final class RewindDemoEndToEndTests: XCTestCase {
  func testListPrintsEveryScenario() throws {
    let result = try DemoProcess.run(["list"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(
      result.stdout,
      """
      counter       Counter: plus, minus, reset, a cancellable message load
      weather       Weather: Root scoping Splash and Main, Root logs the load
      folder-tab    Folder tab: folder grid and climbing calendar via interfaces
      home          Home: children, schedules, AI briefing, two presented sheets
      todos         Todos: forEach rows, a filter, moves and a debounced save
      todos-buggy   Todos with the move bug: replaying against the fixed reducer diverges at step 2
      search        Search: a lookup per keystroke, the one in flight cancelled
      search-buggy  Search that forgets cancelInFlight: replay --chaos finds stale results winning

      """
    )
  }

  func testHelpShowsTheUsage() throws {
    let result = try DemoProcess.run(["--help"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stderr, "")
    XCTAssertTrue(result.stdout.hasPrefix("usage: rewind-demo COMMAND …\n"), result.stdout)
  }

  func testHelpAfterACommandShowsTheUsage() throws {
    for arguments in [["record", "--help"], ["run", "counter", "-h"], ["replay", "--help"]] {
      let result = try DemoProcess.run(arguments)
      XCTAssertEqual(result, try DemoProcess.run(["--help"]), "\(arguments)")
    }
  }

  func testVersionNamesTheTraceFormatsItReads() throws {
    let result = try DemoProcess.run(["--version"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(
      result.stdout, "rewind-demo 0.1.0 (Rewind), reads trace format versions 1, 2, 3\n")
  }

  func testOutputInAMissingDirectoryIsOneLineOnce() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path("missing")
    for command in ["record", "run"] {
      let path = missing + "/t.rewind"
      let result = try DemoProcess.run([command, "counter", "--out", path])
      XCTAssertEqual(result.status, 2, command)
      XCTAssertEqual(result.stdout, "", command)
      XCTAssertEqual(
        result.stderr,
        "rewind-demo: \(command): cannot record to \(path): the directory \(missing) does not "
          + "exist\n")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
  }

  func testForceReplacesAnExistingTrace() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    XCTAssertTrue(FileManager.default.createFile(atPath: path + "-wal", contents: Data("x".utf8)))
    let result = try DemoProcess.run(
      ["record", "counter", "--out", path, "--steps", "2", "--force"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "Recorded 3 steps (2 user actions, seed 1) to \(path)\n")
    XCTAssertEqual(try TraceReader(path: path).info().stepCount, 3)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
  }

  func testEveryScenarioRecordsAndReplaysWithoutDivergence() throws {
    let directory = try TemporaryDirectory()
    for scenario in ["counter", "weather", "folder-tab", "home", "todos"] {
      let path = directory.path("\(scenario).rewind")
      let record = try DemoProcess.run(
        ["record", scenario, "--out", path, "--steps", "16", "--seed", "3"])
      XCTAssertEqual(record.status, 0, "\(scenario): \(record.stderr)")
      XCTAssertEqual(record.stderr, "")
      let steps = try recordedSteps(record.stdout, path: path, seed: 3)
      let info = try TraceReader(path: path).info()
      XCTAssertTrue(info.isComplete, scenario)
      XCTAssertEqual(info.stepCount, steps, scenario)
      XCTAssertEqual(info.metadata.extra["scenario"], scenario)
      XCTAssertEqual(info.metadata.extra["seed"], "3")
      // Every action, presentation and forEach routing included, is indexed by its case path.
      // A routing case (a child's actions) never ends a path: the path goes on into the child.
      let routing: Set = [
        "splash", "main", "view", "folder", "calendar", "folder.view", "folder.inner",
        "calendar.view", "calendar.inner", "childDetail", "scheduleAdd", "childDetail.presented",
        "scheduleAdd.presented", "todos", "todos.element",
      ]
      let casePath = #"^[a-z][A-Za-z0-9]*(\.[a-z_][A-Za-z0-9_]*)*$"#
      let reader = try TraceReader(path: path)
      for row in try reader.rows(from: 1, to: steps) {
        XCTAssertNotNil(
          row.actionPath.range(of: casePath, options: .regularExpression),
          "\(scenario) step \(row.step): \(row.actionPath)")
        XCTAssertFalse(routing.contains(row.actionPath), "\(scenario) step \(row.step)")
      }

      let replay = try DemoProcess.run(["replay", scenario, path])
      XCTAssertEqual(replay.status, 0, "\(scenario): \(replay.stdout)\(replay.stderr)")
      XCTAssertEqual(replay.stderr, "")
      XCTAssertEqual(
        replay.stdout,
        "Replayed \(steps) steps: every state, effect and dependency read matches the trace.\n")
    }
  }

  func testTheSameSeedRecordsTheSameSteps() throws {
    let directory = try TemporaryDirectory()
    var recordings: [[String]] = []
    for (name, seed) in [("a", "11"), ("b", "11"), ("c", "12")] {
      let path = directory.path("\(name).rewind")
      let record = try DemoProcess.run(["record", "home", "--out", path, "--seed", seed])
      XCTAssertEqual(record.status, 0, record.stderr)
      let reader = try TraceReader(path: path)
      let rows = try reader.rows(from: 0, to: try reader.lastStep())
      recordings.append(
        try rows.map { row in
          "\(row.step) \(row.origin == .user ? "user" : "other") \(row.actionPath) "
            + "\(try reader.action(at: row.step)) \(String(row.stateHash, radix: 16))"
        })
    }
    XCTAssertEqual(recordings[0], recordings[1])
    XCTAssertNotEqual(recordings[0], recordings[2])
  }

  func testTheBuggyTraceDivergesFromTheFixedReducerAtTheMove() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("bug.rewind")
    let record = try DemoProcess.run(["record", "todos-buggy", "--out", path, "--steps", "6"])
    XCTAssertEqual(record.status, 0, record.stderr)

    let replay = try DemoProcess.run(["replay", "todos-buggy", path])
    XCTAssertEqual(replay.status, 1)
    XCTAssertEqual(replay.stderr, "")
    // Step 1 filtered the list to active todos; step 2 dragged the third shown todo, "Todo 4",
    // to the top. The buggy reducer moved "Todo 3" (the third of the whole list); the fixed
    // one moves "Todo 4".
    func todo(_ number: Int, _ isComplete: Bool, _ mark: String) -> String {
      let id = "\"00000000-0000-0000-007D-00000000000\(number)\""
      return """
        \(mark)     [id: \(id)]: (
        \(mark)       id: \(id),
        \(mark)       title: "Todo \(number)",
        \(mark)       isComplete: \(isComplete)
        \(mark)     ),
        """
    }
    XCTAssertEqual(
      replay.stdout,
      """
      Step 2 (move) diverged from the trace (1 step matched before it):
        the state after it differs from the recorded one (4 changes, below)

        (
          todos: [
      \(todo(3, true, "-"))
      \(todo(4, false, "+"))
            … (2 unchanged)
      \(todo(4, false, "-"))
      \(todo(3, true, "+"))
            … (8 unchanged)
          ],
          … (5 unchanged)
        )

      (Recorded: -, Replayed: +)

      """
    )
    // The same trace replayed under the fixed scenario's name tells the same story.
    let again = try DemoProcess.run(["replay", "todos", path])
    XCTAssertEqual(again.status, 1)
    XCTAssertEqual(again.stdout, replay.stdout)
  }

  func testRecordRefusesToOverwriteATrace() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    let result = try DemoProcess.run(["record", "counter", "--out", path])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr,
      "rewind-demo: record: \(path) exists: remove it, choose another --out, or replace it with "
        + "--force\n")
  }

  func testReplayOfAMissingTraceFailsWithOneLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("missing.rewind")
    let result = try DemoProcess.run(["replay", "counter", path])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr, "rewind-demo: replay: Cannot replay \(path): \(path): no such file\n")
  }

  func testReplayOfAnotherFeaturesTraceNamesTheMismatch() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("counter.rewind")
    XCTAssertEqual(try DemoProcess.run(["record", "counter", "--out", path]).status, 0)
    let result = try DemoProcess.run(["replay", "todos", path])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr,
      "rewind-demo: replay: Cannot replay \(path): the recorded state does not fit "
        + "TodosFeature.Todos.State: field `todos` is in the type but not in the trace "
        + "(added since recording)\n"
    )
  }

  func testBadCommandLinesPrintOneLineAndExitTwo() throws {
    let cases: [([String], String)] = [
      ([], "missing command (commands: list, record, run, replay; see --help)"),
      (["lst"], "unknown command 'lst' (commands: list, record, run, replay)"),
      (["list", "all"], "list: unexpected argument 'all'"),
      (["record"], "record: missing SCENARIO"),
      (
        ["record", "clock", "--out", "x.rewind"],
        "record: unknown scenario 'clock' (scenarios: counter, weather, folder-tab, home, "
          + "todos, todos-buggy, search, search-buggy)"
      ),
      (["record", "counter"], "record: --out FILE is required"),
      (["record", "counter", "--out"], "record: --out needs a value"),
      (["record", "counter", "--out", "x", "--bug", "1"], "record: unknown option '--bug'"),
      (["record", "counter", "--out", "x", "extra"], "record: unexpected argument 'extra'"),
      (
        ["record", "counter", "--out", "x", "--steps", "-1"],
        "record: --steps must be a whole number from 0 to 10000, got '-1'"
      ),
      (
        ["record", "counter", "--out", "x", "--seed", "one"],
        "record: --seed must be a whole number from 0 to 18446744073709551615, got 'one'"
      ),
      (
        ["record", "counter", "--out", "x", "--seed", "1", "--seed", "2"],
        "record: --seed given twice"
      ),
      (["run", "counter", "--out", "x", "--speed", "3"], "run: unknown option '--speed'"),
      (["run", "counter"], "run: --out FILE, --live or both are required"),
      (
        ["run", "counter", "--live", "--pause", "-5"],
        "run: --pause must be a whole number from 0 to 60000, got '-5'"
      ),
      (
        ["record", "counter", "--out", "x", "--force", "--force"],
        "record: --force given twice"
      ),
      (["record", "counter", "--out", "x", "--force", "yes"], "record: unexpected argument 'yes'"),
      (["--version", "now"], "--version: unexpected argument 'now'"),
      (
        ["run", "counter", "--out", "x", "--duration", "0"],
        "run: --duration must be a number of seconds above 0 and at most 86400, got '0'"
      ),
      (["replay", "counter"], "replay: missing FILE"),
      (["replay", "counter", "--json"], "replay: expected FILE, got option '--json'"),
      (["replay", "counter", "a.rewind", "b.rewind"], "replay: unexpected argument 'b.rewind'"),
      (
        ["replay", "counter", "a.rewind", "--chaos", "0"],
        "replay: --chaos must be a whole number from 1 to 100000, got '0'"
      ),
    ]
    for (arguments, message) in cases {
      let result = try DemoProcess.run(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
      XCTAssertEqual(result.stderr, "rewind-demo: \(message)\n", "\(arguments)")
    }
  }

  func testRunEndsAfterItsDurationWithACompleteTrace() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("live.rewind")
    let result = try DemoProcess.run(["run", "counter", "--out", path, "--duration", "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "Recording counter to \(path); stop with Ctrl-C.")
    XCTAssertEqual(lines.count, 2)
    let info = try TraceReader(path: path).info()
    XCTAssertTrue(info.isComplete)
    XCTAssertEqual(info.metadata.extra["mode"], "run")
    XCTAssertEqual(try DemoProcess.run(["replay", "counter", path]).status, 0)
  }

  func testRunWhoseTraceIsRemovedSaysTheRecordingFailedAndExitsOne() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("live.rewind")
    nonisolated(unsafe) var result: DemoProcess?
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      result = try? DemoProcess.run(["run", "todos", "--out", path, "--duration", "3"])
      done.signal()
    }
    // Remove the trace as soon as it holds a step; the session goes on for its duration.
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, (try? TraceReader(path: path).info().stepCount) ?? 0 < 1 {
      usleep(10_000)
    }
    try FileManager.default.removeItem(atPath: path)
    done.wait()
    let run = try XCTUnwrap(result)
    XCTAssertEqual(run.status, 1, run.stdout)
    let message =
      "Recording to \(path) stopped: \(path): the trace file was removed or replaced while it "
      + "was being written. The app keeps running unrecorded."
    XCTAssertEqual(run.stderr.components(separatedBy: message).count - 1, 2, run.stderr)
    XCTAssertTrue(run.stderr.hasSuffix("rewind-demo: run: " + message + "\n"), run.stderr)
    XCTAssertFalse(run.stdout.contains("Recorded"), run.stdout)
  }

  func testRunStopsCleanlyOnSIGINTAndSIGTERM() throws {
    for signal in [SIGINT, SIGTERM] {
      let directory = try TemporaryDirectory()
      let path = directory.path("live.rewind")
      let child = try DemoChild(["run", "folder-tab", "--out", path])
      try child.waitForLine { $0.hasPrefix("Recording folder-tab") }
      // Let the session produce steps until the trace holds a few.
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline, (try? TraceReader(path: path).info().stepCount) ?? 0 < 5 {
        usleep(20_000)
      }
      child.signal(signal)
      XCTAssertEqual(child.waitForExit(), 0)
      let summary = try XCTUnwrap(child.lines.last)
      let info = try TraceReader(path: path).info()
      XCTAssertTrue(info.isComplete)
      XCTAssertGreaterThanOrEqual(info.stepCount, 5)
      XCTAssertTrue(
        summary.hasPrefix("Recorded \(info.stepCount) steps ("), "\(summary) vs \(info.stepCount)")
      let replay = try DemoProcess.run(["replay", "folder-tab", path])
      XCTAssertEqual(replay.status, 0, "\(replay.stdout)\(replay.stderr)")
    }
  }

  /// The step count of a record's summary line, which must name `path` and `seed`.
  func recordedSteps(_ stdout: String, path: String, seed: Int) throws -> Int {
    let pattern = #"^Recorded (\d+) steps \((\d+) user actions, seed (\d+)\) to (.+)\n$"#
    let regex = try NSRegularExpression(pattern: pattern)
    let range = NSRange(stdout.startIndex..., in: stdout)
    let match = try XCTUnwrap(regex.firstMatch(in: stdout, range: range), stdout)
    func group(_ index: Int) -> String {
      Range(match.range(at: index), in: stdout).map { String(stdout[$0]) } ?? ""
    }
    XCTAssertEqual(group(3), "\(seed)")
    XCTAssertEqual(group(4), path)
    return try XCTUnwrap(Int(group(1)))
  }
}

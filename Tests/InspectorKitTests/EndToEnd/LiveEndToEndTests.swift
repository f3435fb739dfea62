import Foundation
import LiveAttach
import TestSupport
import TraceKit
import XCTest

/// Every live command as a user runs it: `rewind-demo run … --live` in one process, the built
/// `inspector` in another, both in a runtime directory of the test's.
final class LiveEndToEndTests: XCTestCase {
  private var runtime: TemporaryDirectory!
  private var work: TemporaryDirectory!

  override func setUpWithError() throws {
    runtime = try TemporaryDirectory(prefix: "rewind-runtime")
    work = try TemporaryDirectory(prefix: "rewind-work")
  }

  /// The counter after 3 seeded user actions (reset, a message load, minus): 4 steps once the
  /// load's answer arrived.
  private func startCounter() throws -> LiveDemo {
    let demo = try LiveDemo(
      ["counter", "--steps", "3", "--seed", "1", "--pause", "0"], runtime: runtime.url,
      workingDirectory: work.url)
    try demo.waitUntilIdle()
    return demo
  }

  func testPsListsTheAppAndItsSocketIsTheUsersAloneUntilItEnds() throws {
    let demo = try startCounter()
    let steps = try demo.lastStep()
    let json = try demo.inspector(["ps", "--json"])
    XCTAssertEqual(json.status, 0, json.err)
    let apps = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
    XCTAssertEqual(apps.count, 1)
    XCTAssertEqual(apps[0]["name"] as? String, "rewind-demo")
    XCTAssertEqual(apps[0]["rootReducer"] as? String, "Counter")
    XCTAssertEqual(apps[0]["paused"] as? Bool, false)
    XCTAssertEqual(apps[0]["socket"] as? String, demo.socketPath)
    let since = try XCTUnwrap(apps[0]["since"] as? Double)
    let text = try demo.inspector(["ps"])
    XCTAssertEqual(text.status, 0)
    XCTAssertEqual(text.err, "")
    let pid = demo.pidText
    let stepsText = String(steps)
    let pidWidth = max(3, pid.count)
    let stepsWidth = max(5, stepsText.count)
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: width - text.count) + text
    }
    XCTAssertEqual(
      text.out,
      "\(pad("PID", pidWidth))  NAME         REDUCER  \(pad("STEPS", stepsWidth))  STATUS   "
        + "SINCE                 FILE\n"
        + "\(pad(pid, pidWidth))  rewind-demo  Counter  \(pad(stepsText, stepsWidth))  running  "
        + "\(Self.dateTime(since))  -\n")
    XCTAssertEqual(try Self.mode(runtime.path("rewind")), 0o700)
    XCTAssertEqual(try Self.mode(demo.socketPath), 0o600)
    let ended = demo.stop(SIGINT)
    XCTAssertEqual(ended.status, 0)
    XCTAssertEqual(
      ended.out.split(separator: "\n").last.map(String.init),
      "Recorded \(steps) steps (3 user actions) in memory")
    XCTAssertFalse(FileManager.default.fileExists(atPath: demo.socketPath))
    XCTAssertEqual(try demo.inspector(["ps"]).out, "(no live apps of this user)\n")
  }

  func testAttachPrintsTheHistoryThenEachStepAndEndsWithTheApp() throws {
    let demo = try startCounter()
    let steps = try demo.lastStep()
    let attach = try demo.startInspector(["attach", "rewind-demo"])
    waitUntil("the history") { attach.currentOut.contains("(live)\n") }
    let sent = try demo.inspector(["send", demo.pidText, #"{"$case":"plus"}"#])
    XCTAssertEqual(sent.out, "step \(steps + 1): sent by the inspector; running\n")
    waitUntil("the sent step") { attach.currentOut.contains("inspector        plus") }
    _ = demo.stop(SIGTERM)
    attach.process.waitUntilExit()
    let output = attach.output()
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(output.err, "")
    let lines = output.out.split(separator: "\n").map(String.init)
    // Step 0, the history, (live), the inspector's step, the end.
    XCTAssertEqual(lines.count, steps + 4, output.out)
    XCTAssertEqual(
      lines.prefix(steps + 1).map { $0.prefix(6).trimmingCharacters(in: .whitespaces) },
      (0...steps).map(String.init))
    XCTAssertEqual(lines[1].dropFirst(19), "user             reset")
    XCTAssertEqual(lines[steps + 1], "(live)")
    XCTAssertTrue(lines[steps + 2].hasSuffix("inspector        plus  → count"), lines[steps + 2])
    XCTAssertEqual(lines[steps + 3], "(the app finished after step \(steps + 1))")
  }

  func testPauseSendJumpResumeContinueAndDumpSteerTheAppAndTheDumpReplays() throws {
    let demo = try startCounter()
    let n = try demo.lastStep()
    let pid = demo.pidText
    func run(_ arguments: [String]) throws -> String {
      let output = try demo.inspector(arguments)
      XCTAssertEqual(output.status, 0, "\(arguments): \(output.err)")
      XCTAssertEqual(output.err, "", "\(arguments)")
      return output.out
    }
    XCTAssertEqual(try run(["pause", pid]), "paused after step \(n)\n")
    XCTAssertEqual(
      try run(["send", "rewind-demo", #"{"$case":"plus"}"#]),
      "step \(n + 1): sent by the inspector; paused\n")
    XCTAssertEqual(
      try run(["jump", pid, "2"]),
      "step \(n + 2): jumped to step 2; paused at step 2 (jumped; resume returns to step "
        + "\(n + 1))\n")
    XCTAssertEqual(
      try run(["resume", pid]),
      "step \(n + 3): back to the present; running from step \(n + 3)\n")
    XCTAssertEqual(
      try run(["jump", pid, "1"]),
      "step \(n + 4): jumped to step 1; paused at step 1 (jumped; resume returns to step "
        + "\(n + 3))\n")
    XCTAssertEqual(
      try run(["continue", pid]), "step \(n + 5): continued from the jumped state; running\n")
    XCTAssertEqual(
      try run(["dump", pid, "--out", "dump.rewind"]),
      "wrote dump.rewind: steps 0…\(n + 5)\n")
    _ = demo.stop()
    let dump = work.path("dump.rewind")
    // Each inspector step holds exactly the state it names.
    let reader = try TraceReader(path: dump)
    XCTAssertEqual(try reader.state(at: n + 2), try reader.state(at: 2))
    XCTAssertEqual(try reader.state(at: n + 3), try reader.state(at: n + 1))
    XCTAssertEqual(try reader.state(at: n + 4), try reader.state(at: 1))
    XCTAssertEqual(try reader.state(at: n + 5), try reader.state(at: 1))
    XCTAssertEqual(
      try reader.rows(from: n + 1, to: n + 5).map(\.origin.storageText),
      ["inspector", "jump:2", "jump:\(n + 1)", "jump:1", "continue:1"])
    // Both replays: every state from the diffs, and through the counter's reducer.
    let replay = try demo.inspector(["replay", "dump.rewind"])
    XCTAssertEqual(replay.status, 0, replay.out + replay.err)
    XCTAssertEqual(
      replay.out,
      "replay: \(n + 6) states rebuilt, 1 keyframe and every hash match; 1 effect agrees "
        + "with the steps\n")
    let typed = try BuiltProducts.run("rewind-demo", ["replay", "counter", dump], in: work.url)
    XCTAssertEqual(typed.status, 0, typed.out + typed.err)
    XCTAssertEqual(
      typed.out,
      "Replayed \(n + 5) steps: every state, effect and dependency read matches the trace.\n")
  }

  func testWhatTheAppRefusesExitsOneAndWhatCannotBeReachedExitsTwo() throws {
    let demo = try startCounter()
    let n = try demo.lastStep()
    let pid = demo.pidText
    let place = "(jump rewind-demo, pid \(pid))"
    let cases: [([String], Int32, String)] = [
      (
        ["jump", pid, "99"], 1,
        "inspector: the app refused: step 99 is not in the history held in memory "
          + "(steps 0…\(n)) \(place)"
      ),
      (
        ["continue", pid], 1,
        "inspector: the app refused: the store has not jumped: there is no jumped state to "
          + "continue from (continue rewind-demo, pid \(pid))"
      ),
      (
        ["send", pid, #"{"$case":"fly"}"#], 1,
        "inspector: the app refused: the JSON is not a CounterFeature.Counter.Action: no case "
          + "of Action is named 'fly' (send rewind-demo, pid \(pid))"
      ),
      (["send", pid, "{"], 2, "inspector: ACTION is not JSON: invalid trace JSON at byte 1: "
        + "expected a string object key (send)"),
      (["jump", pid, "-1"], 2, "inspector: invalid value '-1' for STEP: expected a "
        + "non-negative integer (jump)"),
      (["pause", "999999"], 2, "inspector: no live app '999999' of this user (inspector ps "
        + "lists them) (pause)"),
      (["pause", "nobody-here"], 2, "inspector: no live app 'nobody-here' of this user "
        + "(inspector ps lists them) (pause)"),
      (["dump", pid], 2, "inspector: missing option --out FILE (dump)"),
    ]
    for (arguments, status, message) in cases {
      let output = try demo.inspector(arguments)
      XCTAssertEqual(output.status, status, "\(arguments)")
      XCTAssertEqual(output.out, "", "\(arguments)")
      XCTAssertEqual(output.err, message + "\n", "\(arguments)")
    }
    XCTAssertEqual(try demo.lastStep(), n)
  }

  func testAKilledAppLeavesItsSocketAndPsRemovesIt() throws {
    let demo = try startCounter()
    let socket = demo.socketPath
    _ = demo.stop(SIGKILL)
    XCTAssertTrue(FileManager.default.fileExists(atPath: socket))
    let output = try demo.inspector(["ps"])
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(output.out, "(no live apps of this user)\n")
    XCTAssertEqual(
      output.err, "inspector: removed the socket of process \(demo.pidText), which is gone (ps)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
    let attach = try demo.inspector(["attach", demo.pidText])
    XCTAssertEqual(attach.status, 2)
    XCTAssertEqual(
      attach.err,
      "inspector: no live app '\(demo.pidText)' of this user (inspector ps lists them) (attach)\n")
  }

  func testAnotherUserCannotAttach() throws {
    guard getuid() == 0 else {
      print("skipped: the second-user test runs a process as nobody, which needs root")
      return
    }
    let nobody: UInt32 = 65_534
    // The app is root's: nobody cannot even reach its directory.
    let demo = try startCounter()
    let refused = try demo.inspector(["attach", demo.pidText], asUser: nobody)
    XCTAssertEqual(refused.status, 2)
    XCTAssertEqual(
      refused.err,
      "inspector: \(runtime.url.path)/rewind belongs to uid 0, not to uid 65534 (attach)\n")
    _ = demo.stop()

    // The app is nobody's: root can reach the socket, and the app refuses it by its uid.
    let shared = try TemporaryDirectory(prefix: "rewind-shared")
    chmod(shared.url.path, 0o777)
    chmod(work.url.path, 0o777)
    let nobodys = try LiveDemo(
      ["counter", "--steps", "1", "--seed", "1", "--pause", "0"], runtime: shared.url,
      workingDirectory: work.url, asUser: nobody)
    try nobodys.waitUntilIdle()
    XCTAssertThrowsError(try LiveClient(socketPath: nobodys.socketPath)) { error in
      XCTAssertEqual(
        error as? LiveClientError,
        .refused(
          code: "refused", message: "uid 0 may not attach to this app: it belongs to uid 65534"))
    }
    // The app goes on, and its own user is served.
    let own = try nobodys.inspector(["pause", nobodys.pidText], asUser: nobody)
    XCTAssertEqual(own.status, 0, own.err)
    _ = nobodys.stop()
  }

  static func mode(_ path: String) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
  }

  /// `NumberText.dateTime`'s format, for the expected `ps` line.
  static func dateTime(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
    return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
  }
}

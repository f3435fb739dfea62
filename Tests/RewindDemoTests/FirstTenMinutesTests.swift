import Foundation
import TestSupport
import XCTest

/// What a new user meets first, taken as they would take it: the README's tour pasted into a
/// shell, `tools/demo`'s closing hint pasted twice, `tools/setup` doing what the README says.
final class FirstTenMinutesTests: XCTestCase {
  /// The repository root (this file is `Tests/RewindDemoTests/FirstTenMinutesTests.swift`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ file: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
  }

  /// One `$ ` command of the tour and the output printed under it.
  struct TourStep {
    var command: String
    var output: String
  }

  /// The console blocks of the README's "A tour" section, command by command.
  static func tour(_ readme: String) -> [TourStep] {
    guard let start = readme.range(of: "\n## A tour\n") else { return [] }
    let section = readme[start.upperBound...]
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    var steps: [TourStep] = []
    var inConsole = false
    for line in section[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inConsole = !inConsole && line == "```console"
        continue
      }
      guard inConsole else { continue }
      if line.hasPrefix("$ ") {
        steps.append(TourStep(command: String(line.dropFirst(2)), output: ""))
      } else if !steps.isEmpty {
        steps[steps.count - 1].output += line + "\n"
      }
    }
    return steps
  }

  /// Output with what differs from run to run (times, durations, effect ids, the column
  /// widths they change) made alike.
  static func masked(_ text: String) -> String {
    text.replacingOccurrences(of: #"\b[0-9a-f]{8}\b"#, with: "ID", options: .regularExpression)
      .replacingOccurrences(of: #"[0-9]+(\.[0-9]+)?"#, with: "#", options: .regularExpression)
      .replacingOccurrences(of: " +", with: " ", options: .regularExpression)
  }

  func testTheReadmeTourRunsAsPastedAndPrintsWhatItShows() throws {
    let steps = Self.tour(try Self.text("README.md"))
    XCTAssertEqual(
      steps.prefix(3).map(\.command),
      ["swift build", #"export PATH="$PWD/.build/debug:$PATH""#, #"cd "$(mktemp -d)""#])
    XCTAssertGreaterThan(steps.count, 10)
    // One shell, from the repository root, as pasted; the build is this test's own, so
    // `swift build` is the one command not run. A marker line between commands keeps `$?`.
    var script = "exec 2>&1\n"
    for (index, step) in steps.enumerated() where step.command != "swift build" {
      script += "status=$?; printf '\\n@@@ \(index)\\n'; (exit $status)\n" + step.command + "\n"
    }
    let scratch = try TemporaryDirectory()
    let output = try BuiltProducts.run(
      "/bin/bash", ["-c", script], in: Self.root,
      environment: ["COLUMNS": "100", "TMPDIR": scratch.url.path])
    XCTAssertEqual(output.status, 0, output.out)
    var printed: [Int: String] = [:]
    for part in output.out.components(separatedBy: "\n@@@ ").dropFirst() {
      let index = Int(part.prefix { $0 != "\n" }) ?? -1
      printed[index] = String(part.drop { $0 != "\n" }.dropFirst())
    }
    for (index, step) in steps.enumerated() where step.command != "swift build" {
      let shown = step.output.trimmingCharacters(in: .newlines)
      let actual = (printed[index] ?? "<not run>").trimmingCharacters(in: .newlines)
      // Timing, effect ids and sizes differ from run to run; everything else is exact.
      let varies = ["inspector info", "inspector log", "inspector effects"].contains {
        step.command.hasPrefix($0)
      }
      if varies {
        XCTAssertEqual(Self.masked(actual), Self.masked(shown), step.command)
      } else {
        XCTAssertEqual(actual, shown, step.command)
      }
    }
  }

  func testToolsDemoClosingHintWorksTwice() throws {
    // The hint's commands, as tools/demo prints them with its own `bin`, `demo` and `trace`.
    let demoScript = try Self.text("tools/demo")
    let hint = try XCTUnwrap(
      demoScript.components(separatedBy: "cat <<HINT\n").last?
        .components(separatedBy: "\nHINT").first)
    let commands = hint.split(separator: "\n").filter { $0.hasPrefix("  ") }
    XCTAssertEqual(commands.count, 2, hint)
    let scratch = try TemporaryDirectory()
    let trace = scratch.path("folder-tab.rewind")
    let record = try BuiltProducts.run(
      "rewind-demo", ["record", "folder-tab", "--out", trace, "--steps", "12", "--seed", "1"],
      in: scratch.url)
    XCTAssertEqual(record.status, 0, record.err)
    for command in commands {
      let line = command.trimmingCharacters(in: .whitespaces)
        .replacingOccurrences(of: "$bin", with: BuiltProducts.directory.path)
        .replacingOccurrences(of: "$demo", with: scratch.url.path)
        .replacingOccurrences(of: "$trace", with: trace)
      let first = try BuiltProducts.run("/bin/sh", ["-c", line], in: scratch.url)
      let second = try BuiltProducts.run("/bin/sh", ["-c", line], in: scratch.url)
      XCTAssertEqual(first.err, "", line)
      XCTAssertEqual(second, first, "pasted a second time: \(line)")
    }
  }

  func testTestsLeaveNoTemporaryFilesBehind() throws {
    // This test bundle, run again in a process of its own with a temporary directory of its
    // own, on the tests that make temporary directories and keep them in properties.
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    guard FileManager.default.isExecutableFile(atPath: bundle), bundle.hasSuffix(".xctest") else {
      throw XCTSkip("the test bundle is not an executable here: \(bundle)")
    }
    let scratch = try TemporaryDirectory()
    let temporary = scratch.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
    for tests in ["TraceRecorderTests.ReplayTests", "InspectorKitTests.GapsEndToEndTests"] {
      let run = try BuiltProducts.run(
        bundle, [tests], in: scratch.url, environment: ["TMPDIR": temporary.path + "/"])
      XCTAssertEqual(run.status, 0, tests + ": " + run.err.suffix(2_000))
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: temporary.path), [],
        "left behind by \(tests)")
    }
  }

  func testToolsSetupInstallsWhatTheReadmeSays() throws {
    let setup = try Self.text("tools/setup")
    let readme = try Self.text("README.md")
    let quickStart = try XCTUnwrap(
      readme.components(separatedBy: "## Quick start").dropFirst().first?
        .components(separatedBy: "\n## ").first)
    let regex = try NSRegularExpression(pattern: #"need\+=\(([a-z0-9.+-]+)\)"#)
    let range = NSRange(setup.startIndex..., in: setup)
    let packages = regex.matches(in: setup, range: range).compactMap {
      Range($0.range(at: 1), in: setup).map { String(setup[$0]) }
    }
    XCTAssertEqual(
      packages,
      ["libsqlite3-dev", "liblz4-dev", "libncurses-dev", "sqlite3", "lz4", "bsdutils", "tmux"])
    for package in packages {
      XCTAssertTrue(quickStart.contains("`\(package)`"), "the README does not name \(package)")
    }
  }
}

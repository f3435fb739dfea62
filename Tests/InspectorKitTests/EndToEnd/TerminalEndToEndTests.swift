import Foundation
import TestSupport
import XCTest

/// The inspector on a real (pseudo-)terminal, through util-linux `script`: colour appears only
/// there and only without NO_COLOR; replay's progress line appears only there.
final class TerminalEndToEndTests: EndToEndTestCase {
  /// Runs the inspector with stdout and stderr on a pseudo-terminal; returns what it printed.
  func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let inspector = try BuiltProducts.executable("inspector")
    let command = ([inspector] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    // A terminal that takes escape sequences unless a test says otherwise.
    let output = try BuiltProducts.run(
      "/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory.url,
      environment: ["TERM": "xterm"].merging(environment) { $1 })
    XCTAssertEqual(output.status, 0, output.err)
    return output.out.replacingOccurrences(of: "\r\n", with: "\n")
  }

  func testColourOnATerminal() throws {
    let output = try onTerminal(["diff", "sample.rewind", "4"])
    XCTAssertTrue(output.contains("\u{1B}[31m-       done: false\u{1B}[0m\n"), output)
    XCTAssertTrue(output.contains("\u{1B}[32m+       done: true\u{1B}[0m\n"), output)
  }

  func testNoColorTurnsColourOff() throws {
    let output = try onTerminal(["diff", "sample.rewind", "4"], environment: ["NO_COLOR": "1"])
    XCTAssertFalse(output.contains("\u{1B}"), output)
    XCTAssertTrue(output.contains("-       done: false\n"), output)
  }

  func testEmptyNoColorLeavesColourOn() throws {
    // no-color.org: NO_COLOR counts only when it holds a value.
    let output = try onTerminal(["diff", "sample.rewind", "4"], environment: ["NO_COLOR": ""])
    XCTAssertTrue(output.contains("\u{1B}[31m-       done: false\u{1B}[0m\n"), output)
  }

  func testDumbTerminalGetsNoColour() throws {
    let output = try onTerminal(["diff", "sample.rewind", "4"], environment: ["TERM": "dumb"])
    XCTAssertFalse(output.contains("\u{1B}"), output)
    XCTAssertTrue(output.contains("-       done: false\n"), output)
  }

  func testRecordedEscapeSequenceStaysEscapedOnATerminal() throws {
    let output = try onTerminal(["show", "sample.rewind", "7"], environment: ["NO_COLOR": "1"])
    XCTAssertFalse(output.contains("\u{1B}"), output)
    XCTAssertTrue(output.contains(#"banner: "\u{1B}[31mALERT\u{1B}[0m""#), output)
  }

  func testReplayShowsProgressOnATerminalForALongTrace() throws {
    _ = try writeSample(named: "long.rewind", ["--steps", "10000", "--keyframe-interval", "256"])
    let output = try onTerminal(["replay", "long.rewind"])
    XCTAssertTrue(output.contains("\rreplay: 50% (5,000/10,000)"), output)
    XCTAssertTrue(
      output.hasSuffix(
        "\r\u{1B}[Kreplay: 10,001 states rebuilt, 40 keyframes and every hash match; "
          + "3 effects agree with the steps\n"),
      output)
  }
}

import Foundation
import TestSupport
import XCTest

@testable import InspectorKit

/// `inspector open`, the real binary in a real terminal (tmux, 120×40) on the committed
/// fixture traces and on traces the test writes: quitting in every way gives the terminal
/// back as it was, a resize redraws at the new size, a trace growing while open grows on
/// screen, recorded escape sequences stay escaped and Korean text keeps the columns.
final class OpenEndToEndTests: XCTestCase {
  var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory = nil
  }

  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Traces/\(name)").path
  }

  /// A shell in the terminal: prints a line, saves the terminal's modes, runs the inspector,
  /// saves its status and the modes again, and says it is done.
  func open(
    _ trace: String, _ options: [String] = [], width: Int = 120, height: Int = 40,
    environment: String = ""
  ) throws -> TmuxSession {
    let inspector = try BuiltProducts.executable("inspector")
    let command =
      "printf 'before-open\\n'; stty -g > before.stty; "
      + "LANG=C.UTF-8 \(environment) '\(inspector)' open '\(trace)' "
      + "\(options.joined(separator: " ")); "
      + "echo $? > status; stty -g > after.stty; printf 'after-open %s\\n' \"$(cat status)\"; "
      // A live pane: tmux hides the cursor of a dead one.
      + "exec sleep 3600"
    return try TmuxSession(command, width: width, height: height, in: directory.url)
  }

  static func isOpen(_ screen: [String]) -> Bool {
    screen.first?.hasPrefix(" Steps") == true
  }

  /// What must hold once the inspector exited: the shell's screen is back with what it
  /// printed before, and nothing of the view; no alternate screen, a visible cursor, no mouse
  /// reports, no application keypad; the tty modes as they were.
  func assertTerminalRestored(
    _ tmux: TmuxSession, status: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let screen = try tmux.waitFor { $0.contains { $0.hasPrefix("after-open ") } }
    XCTAssertEqual(screen.first, "before-open", file: file, line: line)
    XCTAssertTrue(screen.contains("after-open \(status)"), "\(screen)", file: file, line: line)
    XCTAssertFalse(screen.contains { $0.contains("│") }, "\(screen)", file: file, line: line)
    XCTAssertEqual(
      try tmux.display("#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag}"),
      "0 1 0 0", file: file, line: line)
    let before = try String(
      contentsOf: directory.url.appendingPathComponent("before.stty"), encoding: .utf8)
    let after = try String(
      contentsOf: directory.url.appendingPathComponent("after.stty"), encoding: .utf8)
    XCTAssertEqual(before, after, "stty -g", file: file, line: line)
  }

  func testQuitGivesTheTerminalBackExactly() throws {
    let tmux = try open(Self.fixture("folder-tab.rewind"))
    try tmux.waitFor { Self.isOpen($0) && $0.last?.hasPrefix(" step 0 of 33") == true }
    XCTAssertEqual(try tmux.display("#{alternate_on} #{cursor_flag} #{mouse_any_flag}"), "1 0 1")
    try tmux.keys("j", "j", "2")
    try tmux.waitFor { $0.last?.hasPrefix(" step 2 of 33") == true }
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testCtrlCGivesTheTerminalBack() throws {
    let tmux = try open(Self.fixture("counter.rewind"))
    try tmux.waitFor { Self.isOpen($0) }
    try tmux.keys("C-c")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testSIGTERMGivesTheTerminalBackThenEndsByTheSignal() throws {
    let tmux = try open(Self.fixture("counter.rewind"))
    try tmux.waitFor { Self.isOpen($0) }
    XCTAssertEqual(kill(try tmux.childProcess(), SIGTERM), 0)
    try assertTerminalRestored(tmux, status: "143")
  }

  func testAnErrorGivesTheTerminalBackAndSaysWhat() throws {
    let tmux = try open(Self.fixture("counter.rewind"), ["--step", "99"])
    let screen = try tmux.waitFor { $0.contains { $0.hasPrefix("after-open ") } }
    XCTAssertTrue(
      screen.contains("inspector: step 99 out of range 0...21 (open --step)"), "\(screen)")
    try assertTerminalRestored(tmux, status: "2")
  }

  /// The display column of the separator between the panes on a row, if it has one.
  static func separatorColumn(_ line: String) -> Int? {
    line.firstIndex(of: "│").map { DisplayWidth.of(String(line[..<$0])) }
  }

  /// A whole frame of the given size: the status line on the last row, the separator where
  /// the layout puts it on the header row, no line wider than the terminal. (A frame is
  /// drawn top to bottom; waiting for all of it never asserts on a half-drawn one.)
  static func isFrame(_ screen: [String], width: Int, height: Int, status: String) -> Bool {
    screen.count == height && screen[height - 1].hasPrefix(status)
      && separatorColumn(screen[0]) == OpenLayout(width: width, height: height).stepsWidth
      && screen.allSatisfy { DisplayWidth.of($0) <= width }
  }

  func testResizeRedrawsAtTheNewSize() throws {
    let tmux = try open(Self.fixture("home.rewind"), ["--step", "10"])
    try tmux.waitFor { Self.isFrame($0, width: 120, height: 40, status: " step 10 of 28") }
    try tmux.resize(width: 80, height: 24)
    try tmux.waitFor { Self.isFrame($0, width: 80, height: 24, status: " step 10 of 28") }
    try tmux.resize(width: 100, height: 30)
    try tmux.waitFor {
      Self.isFrame($0, width: 100, height: 30, status: " step 10 of 28")
        && $0.contains { $0.hasPrefix(" 10 ") }
    }
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testATraceGrowingWhileOpenGrowsOnScreen() throws {
    let trace = try GrowingTrace(path: directory.path("live.rewind"))
    for _ in 0..<5 { try trace.append() }
    let tmux = try open(trace.path)
    try tmux.waitFor { $0.last?.hasPrefix(" step 0 of 5 · 00:00.000 · initial · live") == true }
    try tmux.keys("G")
    try tmux.waitFor {
      $0.last?.hasPrefix(" step 5 of 5 · 00:00.500 · user · live (following)") == true
    }
    try trace.append(note: "new")
    // On the last step the cursor follows the new step.
    try tmux.waitFor {
      $0.last?.hasPrefix(" step 6 of 6 · 00:00.600 · user · live (following)") == true
    }
    try tmux.keys("k")
    try tmux.waitFor { $0.last?.hasPrefix(" step 5 of 6") == true }
    try trace.append()
    try trace.append()
    // Elsewhere it stays: the list and the count grow.
    try tmux.waitFor {
      $0.last?.hasPrefix(" step 5 of 8 · 00:00.500 · user · live") == true
        && $0.contains { $0.hasPrefix(" 8 00:00.800 user     tapped") }
    }
    try trace.close()
    try tmux.waitFor { $0.last?.hasPrefix(" step 5 of 8 · 00:00.500 · user · complete") == true }
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testAWriterThatDiedIsShown() throws {
    let written = try BuiltProducts.run(
      "inspector-test-writer", ["dead.rewind", "--no-close"], in: directory.url)
    XCTAssertEqual(written.status, 0, written.err)
    let tmux = try open(directory.path("dead.rewind"))
    try tmux.waitFor {
      $0.last?.hasPrefix(" step 0 of 12 · 00:00.000 · initial · writer gone") == true
    }
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testRecordedEscapeSequencesStayEscapedAndKoreanTextKeepsTheColumns() throws {
    let trace = try GrowingTrace(path: directory.path("notes.rewind"))
    try trace.append(note: "\u{1B}[31mALERT\u{1B}[0m")
    try trace.append(note: "한국어 메모 😀")
    try trace.close()
    let tmux = try open(trace.path, ["--step", "2"])
    try tmux.waitFor { Self.isOpen($0) && $0.last?.hasPrefix(" step 2 of 2") == true }
    try tmux.keys("2")
    // Had a raw ESC reached the terminal, tmux would have taken "[31m" as a colour and the
    // text would be gone; had a Korean syllable or the emoji counted one column, the line
    // would be shorter and the separator of the next frame would shift.
    let notes = #"▸ notes: ["\u{1B}[31mALERT\u{1B}[0m", "한국어 메모 😀"]"#
    try tmux.waitFor {
      Self.isFrame($0, width: 120, height: 40, status: " step 2 of 2")
        && $0.contains { $0.contains(notes) }
        && $0.dropLast(2).allSatisfy {
          Self.separatorColumn($0) == OpenLayout(width: 120, height: 40).stepsWidth
        }
    }
    try tmux.keys("3")
    try tmux.waitFor { $0.contains { $0.contains(#".noteAdded("한국어 메모 😀")"#) } }
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

  func testWithoutATerminalItExits2NamingTheBatchCommands() throws {
    let trace = Self.fixture("counter.rewind")
    for environment in [["TERM": "xterm"], ["TERM": "dumb"]] {
      let output = try BuiltProducts.run(
        "inspector", ["open", trace], in: directory.url, environment: environment)
      XCTAssertEqual(output.status, 2)
      XCTAssertEqual(output.out, "")
      XCTAssertEqual(
        output.err,
        "inspector: open needs an interactive terminal; without one, use the batch commands: "
          + "info, log, show, diff, tree, effects, replay, follow, export (open)\n")
    }
  }

  func testHelpNamesTheOptionAndTheKeys() throws {
    let output = try BuiltProducts.run("inspector", ["open", "--help"], in: directory.url)
    XCTAssertEqual(output.status, 0)
    assertSnapshot(output.out, named: "testOpenHelp", in: snapshotDirectory())
  }

  func testColourAsInTheBatchCommandsNoneWithNO_COLOR() throws {
    try checkColour(environment: "", coloured: true)
    directory = try TemporaryDirectory()
    try checkColour(environment: "NO_COLOR=1", coloured: false)
  }

  /// One session (its tmux server ends with this call, before the directory does).
  private func checkColour(environment: String, coloured: Bool) throws {
    let tmux = try open(
      Self.fixture("folder-tab.rewind"), ["--step", "13"], environment: environment)
    try tmux.waitFor { $0.contains { $0.contains("+     highlightedDay: (") } }
    let screen = try tmux.captureWithAttributes()
    // Insertions are green (SGR 32) with colour; without it, no colour at all (only bold,
    // dim and reverse).
    XCTAssertEqual(screen.contains("\u{1B}[32m"), coloured, environment)
    let colours = (0...7).map { "\u{1B}[3\($0)m" }
    XCTAssertEqual(colours.contains { screen.contains($0) }, coloured, environment)
    try tmux.keys("q")
    try assertTerminalRestored(tmux, status: "0")
  }

}

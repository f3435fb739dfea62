import Foundation
import XCTest

/// Every kind of bad input, one by one: exactly one line on stderr that says what and where,
/// nothing on stdout, exit status 2 — never a trap.
final class BadInputEndToEndTests: EndToEndTestCase {
  func url(_ name: String) -> URL { directory.url.appendingPathComponent(name) }

  func copyOfSample(_ name: String) throws -> URL {
    let copy = url(name)
    try FileManager.default.copyItem(at: sample, to: copy)
    return copy
  }

  func testNoCommand() throws {
    try assertFails([], line: "inspector: missing command; see 'inspector --help' (inspector)")
  }

  func testUnknownCommand() throws {
    try assertFails(
      ["frobnicate", "TRACE"],
      line: "inspector: unknown command 'frobnicate'; see 'inspector --help' (inspector)")
  }

  func testUnknownOption() throws {
    try assertFails(
      ["log", "TRACE", "--form", "3"], line: "inspector: unknown option '--form' (log)")
  }

  func testOptionBeforeCommand() throws {
    try assertFails(
      ["--frob"], line: "inspector: unknown option '--frob'; a command comes first (inspector)")
  }

  func testMissingTraceArgument() throws {
    try assertFails(["info"], line: "inspector: missing argument TRACE (info)")
  }

  func testMissingStepArgument() throws {
    try assertFails(["show", "TRACE"], line: "inspector: missing argument STEP (show)")
  }

  func testMissingOptionValue() throws {
    try assertFails(
      ["log", "TRACE", "--limit"], line: "inspector: missing value N for option '--limit' (log)")
  }

  func testExtraArgument() throws {
    try assertFails(
      ["info", "TRACE", "extra"], line: "inspector: unexpected argument 'extra' (info)")
  }

  func testFlagWithValue() throws {
    try assertFails(
      ["log", "TRACE", "--json=1"], line: "inspector: option '--json' takes no value (log)")
  }

  func testNegativeStep() throws {
    try assertFails(
      ["show", "TRACE", "-1"],
      line: "inspector: invalid value '-1' for STEP: expected a non-negative integer (show)")
  }

  func testMissingFile() throws {
    try assertFails(["info", "nope.rewind"], line: "inspector: no such file (nope.rewind)")
  }

  func testDirectory() throws {
    try FileManager.default.createDirectory(
      at: url("dir.rewind"), withIntermediateDirectories: false)
    try assertFails(
      ["info", "TRACE"], trace: url("dir.rewind"),
      line: "inspector: is a directory, not a trace file (dir.rewind)")
  }

  func testTextFileIsNotATrace() throws {
    try Data("hello\n".utf8).write(to: url("text.rewind"))
    try assertFails(
      ["info", "TRACE"], trace: url("text.rewind"),
      line: "inspector: not a SQLite database, so not a Rewind trace (text.rewind)")
  }

  func testOtherSQLiteDatabaseIsNotATrace() throws {
    try sqlite(url("other.db"), "CREATE TABLE x (a)")
    try assertFails(
      ["log", "TRACE"], trace: url("other.db"),
      line: "inspector: a SQLite database but not a Rewind trace (its application_id is 0, not "
        + "1381453380 ('RWND')) (other.db)")
  }

  func testUnsupportedFormatVersion() throws {
    let trace = try copyOfSample("v99.rewind")
    try sqlite(
      trace, "UPDATE meta SET value = '99' WHERE key = 'format_version'; PRAGMA user_version = 99")
    try assertFails(
      ["info", "TRACE"], trace: trace,
      line: "inspector: trace format version 99 is not supported (this reader reads versions 1, "
        + "2 and 3) (v99.rewind)")
  }

  func testCorruptedChunk() throws {
    let trace = try copyOfSample("chunk.rewind")
    try sqlite(trace, "UPDATE chunks SET data = X'04224D186440A7AAAAAAAA' WHERE first_step = 0")
    try assertFails(
      ["show", "TRACE", "5"], trace: trace,
      line: "inspector: payload chunk is damaged: LZ4 frame is malformed "
        + "(ERROR_maxBlockSize_invalid) (chunk.rewind, step 5, chunk 0)")
  }

  func testCorruptedKeyframe() throws {
    let trace = try copyOfSample("keyframe.rewind")
    try sqlite(trace, "UPDATE keyframes SET data = X'0011' WHERE step = 8")
    try assertFails(
      ["diff", "TRACE", "9"], trace: trace,
      line: "inspector: keyframe is damaged: LZ4 frame is truncated (keyframe.rewind, step 8)")
  }

  func testTruncatedTrace() throws {
    let data = try Data(contentsOf: sample)
    try data.prefix(20_000).write(to: url("truncated.rewind"))
    try assertFails(
      ["info", "TRACE"], trace: url("truncated.rewind"),
      line: "inspector: file is truncated: 20000 bytes, the header says \(data.count) "
        + "(truncated.rewind)")
  }

  func testStepOutOfRange() throws {
    try assertFails(
      ["show", "TRACE", "13"], line: "inspector: step 13 out of range 0...12 (sample.rewind)")
  }

  func testDiffOfStepZeroHasNoPreviousStep() throws {
    try assertFails(
      ["diff", "TRACE", "0"], line: "inspector: step 0 out of range 1...12 (sample.rewind)")
  }

  func testUnparsablePath() throws {
    try assertFails(
      ["show", "TRACE", "3", "--path", "todos[id"],
      line:
        #"inspector: invalid path "todos[id" at column 9: expected ':' after 'id' (show --path)"#)
  }

  func testPathWithoutValue() throws {
    try assertFails(
      ["show", "TRACE", "3", "--path", "nope"],
      line: "inspector: no value at path 'nope' (sample.rewind, step 3)")
  }

  func testUnparsableRegex() throws {
    try assertFails(
      ["log", "TRACE", "--grep", "(todos"],
      line: #"inspector: invalid regular expression "(todos" (log --grep)"#)
  }

  func testBadOrigin() throws {
    try assertFails(
      ["log", "TRACE", "--origin", "bot"],
      line: "inspector: invalid value 'bot' for --origin: expected 'user' or 'effect' (log)")
  }

  func testUnsupportedExportFormat() throws {
    try assertFails(
      ["export", "TRACE", "--format", "csv"],
      line: "inspector: unsupported format 'csv': expected 'json' or 'perfetto' (export --format)")
  }

  func testEscapeSequenceInFileNameIsEscapedInTheMessage() throws {
    try assertFails(
      ["info", "\u{1B}[2Jgone.rewind"],
      line: #"inspector: no such file (\u{1B}[2Jgone.rewind)"#)
  }
}

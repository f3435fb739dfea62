import Foundation
import TestSupport
import XCTest

@testable import InspectorKit
@testable import TraceKit

/// `inspector replay` on a trace file long enough that its steps travel between the reading
/// and the checking thread in several blocks, with chunks that end inside a block and blocks
/// that end inside a chunk, a gap and keyframes in between: every state is rebuilt from the
/// right line, and a damaged step is found where it is.
final class ReplayBlocksTests: XCTestCase {
  static let steps = 1_300
  static let dropped = 700...702

  /// A small feature's state: a counter, a log that keeps its last five entries, a nested
  /// settings object changed now and then.
  func state(_ step: Int) -> TraceValue {
    let entries = stride(from: max(0, step - step % 3 - 12), through: step - step % 3, by: 3)
      .map { TraceValue.string("entry \($0)") }
    return .object([
      TraceField("count", .int(Int64(step))),
      TraceField("log", .array(Array(entries.suffix(5)))),
      TraceField(
        "settings",
        .object([
          TraceField("volume", .int(Int64(step / 7 % 11))),
          TraceField("muted", .bool(step / 50 % 2 == 1)),
        ])),
    ])
  }

  /// Steps 1…1,300 without 700…702, keyframes every 64 steps, chunks' parts ended at steps
  /// that fall inside the replay's blocks of 512 (and at 511 and 1,025, either side of a
  /// block's end); with `chunkSteps`, a chunk sealed every that many steps (one chunk
  /// otherwise).
  func writeTrace(at path: String, chunkSteps: Int? = nil) throws {
    let metadata = TraceMetadata(
      rootReducer: "Player", stateType: "Player.State", actionType: "Player.Action",
      keyframeInterval: 64, extra: [:])
    let writer = try TraceWriter(path: path, metadata: metadata, initialState: state(0))
    if let chunkSteps { writer.chunkStepLimit = chunkSteps }
    var previous = state(0)
    for step in 1...Self.steps where !Self.dropped.contains(step) {
      let next = state(step)
      let (changes, paths) = TraceDiff.changesAndPaths(from: previous, to: next)
      let action = ["tick", "log", "volume"][step % 3]
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_000 + Double(step),
          origin: step % 5 == 0 ? .send(step: step - 1) : .user, actionPath: action,
          action: .enumCase(action, []), changes: changes,
          changedPaths: paths.map(\.description), stateHash: next.stableHash,
          reducerNanos: 10),
        state: next)
      previous = next
      if [97, 511, 600, 1_025, 1_200].contains(step) { try writer.flush() }
    }
    try writer.close()
  }

  func replay(_ path: String) -> (out: String, err: String, status: Int32) {
    let inspector = Inspector(
      terminal: FixedTerminal(width: 80, colour: false), interruption: .never,
      open: { path throws(InspectorError) in try TraceFileSource(path: path) })
    var out = ""
    var err = ""
    let status = inspector.run(["replay", path], out: &out, err: &err)
    return (out, err, status)
  }

  func testEveryStateOfAManyBlockTraceIsRebuiltFromItsOwnLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("player.rewind")
    try writeTrace(at: path)
    let result = replay(path)
    XCTAssertEqual(result.err, "")
    XCTAssertEqual(
      result.out,
      "replay: 1,298 states rebuilt, 21 keyframes and every hash match (3 steps dropped in "
        + "1 gap; restarted from the keyframe after it); 0 effects agree with the steps\n")
    XCTAssertEqual(result.status, 0)
  }

  /// A line in the third block, in a chunk that began in the second, whose change was
  /// altered: the step's rebuilt state no longer has its recorded hash.
  func testADamagedLineInALaterBlockIsFoundAtItsStep() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("player.rewind")
    try writeTrace(at: path)
    let editor = try TraceEditor(path: path)
    let chunk = try editor.integers(
      "SELECT chunk FROM chunks WHERE first_step <= 1100 ORDER BY first_step DESC LIMIT 1")
    XCTAssertLessThan(chunk.first ?? 0, 1_024)
    try editor.editChunkLines(firstStep: Int(chunk.first ?? 0)) { lines in
      lines = lines.map {
        $0.replacingOccurrences(
          of: "{\"op\":\"set\",\"path\":\"count\",\"value\":1100}",
          with: "{\"op\":\"set\",\"path\":\"count\",\"value\":1111}")
      }
    }
    editor.close()
    let result = replay(path)
    XCTAssertEqual(
      result.err,
      "inspector: replay check failed: state hash mismatch (\(path), step 1100)\n")
    XCTAssertTrue(result.out.hasPrefix("step 1100: volume\nrecorded hash "), result.out)
    XCTAssertTrue(result.out.hasSuffix(
      "the step's diff as replayed:\n  (\n-   count: 1099,\n+   count: 1111,\n"
      + "    … (1 unchanged)\n    settings: (\n      … (1 unchanged)\n-     muted: true\n"
      + "+     muted: false\n    )\n  )\n"), result.out)
    XCTAssertEqual(result.status, 1)
  }

  // The reading thread reads rows ahead and hands chunks over unsplit: the checking thread
  // splits each chunk and finds each step's line. Whichever thread meets a problem, the
  // first in step order is the one reported. With a chunk sealed every 300 steps, the chunk
  // of steps 903…1,202 begins in the second block of 512 and ends in the third.

  /// The trace (chunks of 300 steps) with `edit` applied, replayed: the error line (the
  /// same, checked by hand, as the single-reading-thread `inspector` of 0f207df gives), with
  /// the file's path as TRACE.
  func replayError(_ edit: (TraceEditor) throws -> Void) throws -> String {
    let directory = try TemporaryDirectory()
    let path = directory.path("player.rewind")
    try writeTrace(at: path, chunkSteps: 300)
    let editor = try TraceEditor(path: path)
    XCTAssertEqual(
      try editor.integers("SELECT first_step FROM chunks WHERE chunk = 903"), [903, 1_026, 1_201])
    try edit(editor)
    editor.close()
    let result = replay(path)
    XCTAssertEqual(result.out, "")
    XCTAssertEqual(result.status, 2)
    return result.err.replacingOccurrences(of: path, with: "TRACE")
  }

  /// Step 1,000's line no longer starts as a line does: the chunk of 903…1,202 does not
  /// split, which is reported at the first step read from it, 903.
  func breakChunk903(_ editor: TraceEditor) throws {
    try editor.editChunkLines(firstStep: 903) { lines in lines[1_000 - 903] = "{\"bogus\":1}" }
  }

  /// The line of `step` (in the chunk of 903…1,202; every line carries its step) is gone and
  /// the chunk's row counts one line fewer: the chunk splits, and has no line for the step.
  func dropLine(of step: Int, _ editor: TraceEditor) throws {
    try editor.editChunkLines(firstStep: 903) { lines in lines.remove(at: step - 903) }
    try editor.execute("UPDATE chunks SET step_count = step_count - 1 WHERE first_step = 903")
  }

  func damageRow(_ step: Int, _ editor: TraceEditor) throws {
    try editor.execute("UPDATE steps SET mono_ns = 'soon' WHERE step = \(step)")
  }

  static let unsplit =
    "inspector: payload chunk is damaged: a line starts with neither {\"step\":N, nor "
    + "{\"action\": (TRACE, step 903, chunk 903)\n"
  static let noLine =
    "inspector: payload chunk is damaged: the chunk has no line for this step "
    + "(TRACE, step 1100, chunk 903)\n"

  static func rowError(_ step: Int) -> String {
    "inspector: index row is damaged: mono_ns is 'soon', not an integer (TRACE, step \(step))\n"
  }

  func testAChunkThatDoesNotSplitIsReportedBeforeADamagedRowAfterIt() throws {
    XCTAssertEqual(
      try replayError { try breakChunk903($0); try damageRow(904, $0) }, Self.unsplit)
  }

  func testADamagedRowIsReportedBeforeAChunkThatDoesNotSplitAfterIt() throws {
    XCTAssertEqual(
      try replayError { try damageRow(902, $0); try breakChunk903($0) }, Self.rowError(902))
  }

  func testAMissingLineIsReportedBeforeADamagedRowAfterIt() throws {
    XCTAssertEqual(
      try replayError { try dropLine(of: 1_100, $0); try damageRow(1_101, $0) }, Self.noLine)
  }

  func testADamagedRowIsReportedBeforeAMissingLineAfterIt() throws {
    XCTAssertEqual(
      try replayError { try damageRow(1_100, $0); try dropLine(of: 1_101, $0) },
      Self.rowError(1_100))
  }

  /// Each damage alone: the reading thread reads on past a chunk's problem, which still
  /// stops the replay at its step.
  func testAMissingLineAloneAndAChunkThatDoesNotSplitAlone() throws {
    XCTAssertEqual(try replayError { try dropLine(of: 1_100, $0) }, Self.noLine)
    XCTAssertEqual(try replayError { try breakChunk903($0) }, Self.unsplit)
  }
}

import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Format 3's step lines: a line carries its step only where it does not follow the previous
/// line's (a part's first line, the line after a gap); a reader numbers the others and checks
/// every part's lines against its row.
final class TraceStepNumberingTests: XCTestCase {
  /// A counter whose `plus` adds its step to `count`, recorded as steps 0…5, a gap, then 9
  /// and 10, flushed after step 3: chunk 0's parts are 0, 1…3 and 4…10 (a gap inside it).
  func writeCounter(at path: String) throws {
    func state(_ count: Int) -> TraceValue { .object([TraceField("count", .int(Int64(count)))]) }
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: state(0),
      wallTime: 1_780_000_000)
    var count = 0
    for step in [1, 2, 3, 4, 5, 9, 10] {
      count += step
      try writer.append(
        StepRecord(
          step: step, monotonicNanos: UInt64(step) * 1_000, wallTime: 1_780_000_000,
          origin: .user, actionPath: "plus", action: .enumCase("plus", []),
          changes: [.set(TracePath([.key("count")]), .int(Int64(count)))],
          changedPaths: ["count"], stateHash: state(count).stableHash, reducerNanos: 1),
        state: state(count))
      if step == 3 { try writer.flush() }
    }
    try writer.close()
  }

  func line(_ step: Int?, count: Int) -> String {
    let head = step.map { #"{"step":\#($0),"# } ?? "{"
    return head + #""action":{"$case":"plus"},"changes":[{"op":"set","path":"count","value":"#
      + "\(count)}]}"
  }

  func testALineCarriesItsStepOnlyAtAPartsStartAndAfterAGap() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeCounter(at: path)
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    XCTAssertEqual(
      try db.scalarText(
        """
        SELECT group_concat(first_step || '|' || chunk || '|' || last_step || '|' || step_count,
          ' ') FROM (SELECT * FROM chunks ORDER BY first_step)
        """),
      "0|0|0|1 1|0|3|3 4|0|10|4")
    let editor = try TraceEditor(path: path)
    let text = String(decoding: try editor.chunkBytes(firstStep: 0), as: UTF8.self)
    editor.close()
    XCTAssertEqual(
      text,
      [
        #"{"step":0,"action":null,"changes":[]}"#, line(1, count: 1), line(nil, count: 3),
        line(nil, count: 6), line(4, count: 10), line(nil, count: 15), line(9, count: 24),
        line(nil, count: 34),
      ].map { $0 + "\n" }.joined())

    let reader = try TraceReader(path: path)
    var steps: [Int] = []
    var counts: [TraceChange] = []
    try reader.forEachStep(from: 0, to: .max) { row, payload in
      steps.append(payload.step)
      XCTAssertEqual(row.step, payload.step)
      counts += try payload.changes()
      return true
    }
    XCTAssertEqual(steps, [0, 1, 2, 3, 4, 5, 9, 10])
    XCTAssertEqual(
      counts, [1, 3, 6, 10, 15, 24, 34].map { .set(TracePath([.key("count")]), .int($0)) })
    XCTAssertEqual(try reader.state(at: 10), .object([TraceField("count", .int(34))]))
    XCTAssertEqual(try reader.action(at: 5), .enumCase("plus", []))
    XCTAssertEqual(
      try reader.changes(at: 2), [.set(TracePath([.key("count")]), .int(3))])
  }

  // MARK: Hostile rows

  /// The error reading step `step` of the counter trace after `edit`, as one line.
  func error(
    reading step: Int = 10, after edit: (TraceEditor) throws -> Void
  ) throws -> String {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeCounter(at: path)
    let editor = try TraceEditor(path: path)
    try edit(editor)
    editor.close()
    do {
      let reader = try TraceReader(path: path)
      _ = try reader.state(at: step)
      return "no error"
    } catch {
      return "\(error)".replacingOccurrences(of: path, with: "t.rewind")
    }
  }

  /// Edits chunk 0's lines as stored (it becomes one part, 0…10 of 8 lines).
  func lines(_ edit: @escaping (inout [String]) -> Void) -> (TraceEditor) throws -> Void {
    { editor in try editor.editChunkLines(firstStep: 0, withSteps: false, edit) }
  }

  func testEachViolationOfAPartsRowIsOneLineNamingTheChunk() throws {
    let damaged = "t.rewind: step 10 (chunk 0): payload chunk is damaged: "
    XCTAssertEqual(try error(after: lines { _ in }), "no error")
    XCTAssertEqual(
      try error(after: lines { $0.remove(at: 2) }),
      damaged + "part 0…10 holds 7 lines, but its step_count is 8")
    XCTAssertEqual(
      try error(after: lines { $0.append($0[2]) }),
      damaged + "a line of step 11 lies outside part 0…10")
    XCTAssertEqual(
      try error(after: lines { $0.insert($0[2], at: 2) }),
      damaged + "a line of step 4 follows the line of step 4")
    XCTAssertEqual(
      try error(after: lines { $0[6] = $0[6].replacingOccurrences(of: ":9,", with: ":3,") }),
      damaged + "a line of step 3 follows the line of step 5")
    XCTAssertEqual(
      try error(after: lines { $0[6] = $0[6].replacingOccurrences(of: ":9,", with: ":12,") }),
      damaged + "a line of step 12 lies outside part 0…10")
    XCTAssertEqual(
      try error(after: lines { $0[0] = "{" + $0[0].dropFirst(#"{"step":0,"#.count) }),
      damaged + "its first line does not carry its step")
    XCTAssertEqual(
      try error(after: lines { $0[3] = "{\"step\" :3," + $0[3].dropFirst() }),
      damaged + #"a line starts with neither {"step":N, nor {"action":"#)
  }

  func testPartRowsThatLieAboutTheirLinesAreDamage() throws {
    let damaged = "t.rewind: step 10 (chunk 0): payload chunk is damaged: "
    func sql(_ text: String) -> (TraceEditor) throws -> Void { { try $0.execute(text) } }
    XCTAssertEqual(
      try error(after: sql("UPDATE chunks SET step_count = 9 WHERE first_step = 4")),
      damaged + "part 4…10 holds 4 lines, but its step_count is 9")
    XCTAssertEqual(
      try error(after: sql("UPDATE chunks SET step_count = 2 WHERE first_step = 1")),
      damaged + "part 1…3 holds 3 lines, but its step_count is 2")
    XCTAssertEqual(
      try error(after: sql("UPDATE chunks SET last_step = 2 WHERE first_step = 1")),
      damaged + "a line of step 3 lies outside part 1…2")
    XCTAssertEqual(
      try error(after: sql("UPDATE chunks SET last_step = 11 WHERE first_step = 4")),
      damaged + "part 4…11 ends with step 10, not its last_step")
    XCTAssertEqual(
      try error(
        after: sql(
          """
          UPDATE chunks SET raw_size = raw_size - 1 WHERE first_step = 1;
          UPDATE chunks SET raw_size = raw_size + 1 WHERE first_step = 4;
          """)),
      damaged + "part 1…3's raw_size ends inside a line")
  }

  // MARK: Version 2

  func testVersion2TracesWhoseLinesAllCarryTheirStepStillRead() throws {
    let reader = try TraceReader(path: FixtureTraces.path("todos.rewind"))
    XCTAssertEqual(try reader.info().formatVersion, 2)
    var state = try reader.state(at: 0)
    var steps: [Int] = []
    try reader.forEachStep(from: 1, to: .max) { row, payload in
      try TraceDiff.apply(try payload.changes(), to: &state)
      XCTAssertEqual(state.stableHash, row.stateHash, "step \(row.step)")
      steps.append(payload.step)
      return true
    }
    XCTAssertEqual(steps, Array(1...20))
    XCTAssertEqual(try reader.state(at: 20), state)
  }

  func testAVersion2LineWithoutItsStepIsDamage() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("v2.rewind")
    try FileManager.default.copyItem(atPath: FixtureTraces.path("todos.rewind"), toPath: path)
    let editor = try TraceEditor(path: path)
    try editor.editChunkLines(firstStep: 0, withSteps: false) { lines in
      lines[4] = "{" + lines[4].drop { $0 != "," }.dropFirst()
    }
    editor.close()
    XCTAssertThrowsError(try TraceReader(path: path).state(at: 20)) { error in
      XCTAssertEqual(
        "\(error)",
        "\(path): step 1 (chunk 0): payload chunk is damaged: "
          + #"a line does not start with {"step":N,"#)
    }
  }

  // MARK: Wall offsets

  /// The offset the writer stored before format 3: the clocks' rounded true offset.
  func roundedOffset(_ wall: Double, mono: Int64, start: Double) -> Int64? {
    let elapsed = ((wall - start) * 1e9).rounded()
    guard elapsed.isFinite, abs(elapsed) < 9e18 else { return nil }
    let (offset, overflow) = Int64(elapsed).subtractingReportingOverflow(mono)
    guard !overflow else { return nil }
    for candidate in [offset, offset &- 1, offset &+ 1]
    where start + Double(mono + candidate) / 1e9 == wall {
      return candidate
    }
    return nil
  }

  func testTheStoredWallOffsetIsTheOneNearestZeroThatGivesTheTimeBack() {
    var random = SplitMix(seed: 7)
    var zeros = 0
    var checked = 0
    for index in 0..<20_000 {
      let start = 1_780_000_000 + Double(random.next() % 1_000_000) / 997
      let mono = Int64(random.next() % 100_000_000_000_000)
      // Clocks read up to 50 µs apart, either way; some a day apart (a wall clock that jumped).
      var skew = Int64(random.next() % 100_000) - 50_000
      if index % 10 == 0 { skew += 86_400_000_000_000 }
      let wall = start + Double(mono + skew) / 1e9
      let stored = TraceWriter.wallColumns(
        wall, monotonicNanos: UInt64(mono), start: start, isFirst: false)
      guard let old = roundedOffset(wall, mono: mono, start: start) else {
        XCTAssertEqual(stored.time, wall, "mono \(mono) wall \(wall)")
        continue
      }
      checked += 1
      XCTAssertNil(stored.time, "mono \(mono) wall \(wall)")
      let offset = stored.offset
      // The same Double back, bit for bit, as the old offset gave.
      let back = start + Double(mono + offset) / 1e9
      XCTAssertEqual(back.bitPattern, wall.bitPattern, "mono \(mono) offset \(offset)")
      XCTAssertLessThanOrEqual(offset.magnitude, old.magnitude)
      // Nearest 0: one step towards 0 gives another time.
      if offset == 0 {
        zeros += 1
      } else {
        let nearer = offset > 0 ? offset - 1 : offset + 1
        XCTAssertNotEqual(start + Double(mono + nearer) / 1e9, wall, "mono \(mono)")
      }
    }
    XCTAssertGreaterThan(checked, 19_000)
    // |skew| ≤ 119 ns of 50 µs: about 0.2 % give back the time at offset 0.
    XCTAssertGreaterThan(zeros, 0)
  }
}

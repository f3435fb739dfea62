import Foundation
import XCTest

/// `inspector compare A B` on the built binary: the committed fixture traces and variants of
/// the sample session, against snapshot files.
final class CompareEndToEndTests: EndToEndTestCase {
  private var todos: URL {
    FixtureTracesEndToEndTests.traces.appendingPathComponent("todos.rewind")
  }

  func testCompareTwoRecordingsNamesTheFirstDifferentActionWithItsContext() throws {
    // Both in the fixtures' directory, where the inspector runs: no machine-specific path.
    try assertInspector(["compare", "TRACE", "todos-buggy.rewind"], trace: todos)
  }

  func testCompareATraceWithItselfIsTheSame() throws {
    try assertInspector(["compare", "TRACE", "TRACE"], trace: todos)
  }

  func testCompareNamesTheSameActionLeavingAnotherState() throws {
    let other = try writeSample(named: "other.rewind", ["--increment", "2"])
    try assertInspector(["compare", "TRACE", other.lastPathComponent])
  }

  func testCompareNamesTheTraceThatEndsFirst() throws {
    let longer = try writeSample(named: "longer.rewind", ["--steps", "14"])
    try assertInspector(["compare", "TRACE", longer.lastPathComponent])
  }

  func testCompareNamesADroppedStep() throws {
    let dropped = try writeSample(named: "dropped.rewind", ["--drop", "4"])
    try assertInspector(["compare", "TRACE", dropped.lastPathComponent])
  }

  func testCompareJSON() throws {
    let longer = try writeSample(named: "longer.rewind", ["--steps", "13"])
    try assertInspector(["compare", "TRACE", longer.lastPathComponent, "--json"])
  }

  func testCompareOfAnUnreadableTraceExitsTwo() throws {
    try assertFails(
      ["compare", "TRACE", "missing.rewind"],
      line: "inspector: missing.rewind: no such file (compare)")
  }
}

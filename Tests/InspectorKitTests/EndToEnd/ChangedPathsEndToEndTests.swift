import Foundation
import TestSupport
import XCTest

/// `inspector replay` vouches for the index's changed paths too: a step whose `changed`
/// column names another step's set (an edit with `sqlite3`) fails the check in one line, where
/// `log` would show the other set's paths.
final class ChangedPathsEndToEndTests: EndToEndTestCase {
  func edited(_ name: String, _ sql: String) throws -> URL {
    let copy = directory.url.appendingPathComponent(name)
    try FileManager.default.copyItem(at: sample, to: copy)
    let editor = try TraceEditor(path: copy.path)
    try editor.execute(sql)
    editor.close()
    return copy
  }

  func testAStepWhoseIndexNamesAnotherSetFailsTheReplay() throws {
    let cases: [(sql: String, step: Int, action: String, index: String, changes: String)] = [
      (
        "UPDATE steps SET changed = 1 WHERE step = 5", 5, "child.toggleTapped", "count",
        "child.isOn"
      ),
      (
        "UPDATE steps SET changed = 3 WHERE step = 2", 2, "todos.addTapped", "todos[id: 2]",
        "todos[0]"
      ),
      ("UPDATE steps SET changed = 0 WHERE step = 12", 12, "counter.factTapped", "(none)", "mode"),
    ]
    for (index, edit) in cases.enumerated() {
      let trace = try edited("paths-\(index).rewind", edit.sql)
      let output = try inspect(["replay", "TRACE"], trace: trace)
      XCTAssertEqual(
        output.out,
        "step \(edit.step): \(edit.action)\nthe index's changed paths: \(edit.index)\n"
          + "the step's changes change: \(edit.changes)\n")
      XCTAssertEqual(
        output.err,
        "inspector: replay check failed: the index's changed paths do not match the step's "
          + "changes (paths-\(index).rewind, step \(edit.step))\n")
      XCTAssertEqual(output.status, 1)
    }
    // The written sets, and a set id pointed at its own set again, pass.
    let same = try edited("same.rewind", "UPDATE steps SET changed = 5 WHERE step = 11")
    let replayed = try inspect(["replay", "TRACE"], trace: same)
    XCTAssertEqual(replayed.status, 0, replayed.err)
    XCTAssertTrue(replayed.out.hasPrefix("replay: 13 states rebuilt"), replayed.out)
  }
}

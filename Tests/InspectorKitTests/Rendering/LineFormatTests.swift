import Foundation
import TraceKit
import XCTest

@testable import InspectorKit

final class LineFormatTests: XCTestCase {
  func entry(_ step: Int, origin: StepOrigin = .user, paths: [String]) -> StepRow {
    StepRow(
      step: step, monotonicNanos: 3_723_456_000_000, wallTime: 0, origin: origin,
      actionPath: "todos.todo.renamed", changedPaths: paths, stateHash: 0, reducerNanos: 0)
  }

  func testLineShowsInnermostPayloadAndChangedPaths() {
    let action = TraceValue.enumCase(
      "todos",
      [
        TraceField(
          "_0",
          .enumCase(
            "todo",
            [
              TraceField(
                "_0",
                .enumCase(
                  "renamed",
                  [
                    TraceField("id", .int(3)), TraceField("_1", .string("\u{1B}]0;x")),
                  ]))
            ]))
      ])
    let line = LineFormat(width: 120, style: Style(colour: false))
      .render(entry(42, paths: ["todos[id: 3].title"]), action: action)
    XCTAssertEqual(
      line,
      #"    42  1:02:03.456  user             todos.todo.renamed(id: 3, "\u{1B}]0;x")"#
        + "  → todos[id: 3].title")
  }

  func testLineIsCutToTheWidthAndNumbersWidenForLongTraces() {
    let line = LineFormat(width: 60, style: Style(colour: false), lastStep: 12_345_678)
      .render(
        entry(
          7, origin: .effect(UUID(uuidString: "4B0D2E77-0000-4000-8000-00000000000B")!),
          paths: ["a", "b"]), action: .null)
    XCTAssertEqual(line, "       7  1:02:03.456  effect 4b0d2e77  todos.todo.renamed …")
    XCTAssertEqual(line.count, 60)
  }

  /// Effects made in the same minute share the first digits of their time-ordered ids: a
  /// line names one by the random end of its id.
  func testAnEffectWithATimeOrderedIDIsNamedByItsLastDigits() {
    let line = LineFormat(width: 80, style: Style(colour: false))
      .render(
        entry(
          7, origin: .effect(UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!),
          paths: ["a"]), action: .null)
    XCTAssertEqual(line, "     7  1:02:03.456  effect 8a4b72d6  todos.todo.renamed  → a")
  }

  func testUnlimitedWidthKeepsTheWholeLine() {
    let action = TraceValue.enumCase(
      "renamed", [TraceField("title", .string(String(repeating: "x", count: 100)))])
    let line = LineFormat(width: .max, style: Style(colour: false))
      .render(entry(3, paths: ["todos[id: 3].title", "count"]), action: action)
    XCTAssertEqual(
      line,
      "     3  1:02:03.456  user             todos.todo.renamed(title: \""
        + String(repeating: "x", count: 100) + "\")  → todos[id: 3].title, count")
  }
}

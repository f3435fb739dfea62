import Foundation
import XCTest

/// The inspector on the committed traces of real recorded sessions (`Fixtures/Traces`, made by
/// `tools/record-fixtures`), against snapshot files. Re-recording the traces changes their
/// times, sizes and effect ids: re-record these snapshots with them (`RECORD_SNAPSHOTS=1`).
final class FixtureTracesEndToEndTests: EndToEndTestCase {
  static let traces = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // EndToEnd
    .deletingLastPathComponent()  // InspectorKitTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Fixtures/Traces")

  /// Runs the commands a developer reaches for first on one recorded scenario.
  func assertTour(_ scenario: String, diffStep: Int, file: StaticString = #filePath,
    line: UInt = #line) throws
  {
    let trace = Self.traces.appendingPathComponent("\(scenario).rewind")
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: trace.path),
      "missing \(trace.path): run tools/record-fixtures", file: file, line: line)
    let commands: [(String, [String])] = [
      ("info", ["info", "TRACE"]),
      ("tree", ["tree", "TRACE"]),
      ("log", ["log", "TRACE"]),
      ("effects", ["effects", "TRACE"]),
      ("show", ["show", "TRACE", "\(diffStep)"]),
      ("diff", ["diff", "TRACE", "\(diffStep)"]),
      ("replay", ["replay", "TRACE"]),
    ]
    for (name, arguments) in commands {
      try assertInspector(
        arguments, trace: trace, named: "fixture-\(scenario)-\(name)", file: file, line: line)
    }
  }

  func testCounter() throws { try assertTour("counter", diffStep: 6) }
  func testWeather() throws { try assertTour("weather", diffStep: 4) }
  func testFolderTab() throws { try assertTour("folder-tab", diffStep: 13) }
  func testHome() throws { try assertTour("home", diffStep: 8) }
  func testTodos() throws { try assertTour("todos", diffStep: 5) }
  func testTodosBuggy() throws { try assertTour("todos-buggy", diffStep: 2) }
}

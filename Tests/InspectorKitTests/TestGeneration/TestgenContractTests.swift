import Foundation
import TestSupport
import XCTest

/// The contract of `inspector testgen`: for every committed fixture trace (every scenario of
/// `rewind-demo`), the test it generates is committed in `Tests/GeneratedTraceTests`, where
/// `swift test` compiles it against the fixture modules and runs it. This test regenerates
/// each with the built `inspector` and compares byte for byte, so the committed tests are
/// always what testgen prints today (`RECORD_SNAPSHOTS=1` writes them).
final class TestgenContractTests: EndToEndTestCase {
  static let generated = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestGeneration
    .deletingLastPathComponent()  // InspectorKitTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("GeneratedTraceTests")

  /// Each fixture trace, the options its test is generated with, and its file. No client is
  /// set: the generated tests name the clients the traces list, and the fixtures' test values
  /// answer on the test's clock as the recordings did.
  static let cases: [(trace: String, options: [String], file: String)] = [
    ("counter", [], "CounterTraceTests"),
    ("weather", ["--name", "WeatherTraceTests"], "WeatherTraceTests"),
    (
      "folder-tab", ["--import", "CalendarFeature,FixtureFeatures,FolderFeature"],
      "FolderTabTraceTests"
    ),
    ("home", [], "HomeTraceTests"),
    ("todos", [], "TodosTraceTests"),
    (
      "todos-buggy",
      [
        "--reducer", "Todos(bug: .moveIgnoresFilter)", "--name", "TodosBuggyTraceTests",
        "--swift-testing",
      ],
      "TodosBuggyTraceTests"
    ),
  ]

  func testTestgenHelp() throws {
    try assertInspector(["testgen", "--help"])
  }

  func testARangeOverDroppedStepsIsOneLine() throws {
    let gapped = try writeSample(named: "gapped.rewind", ["--drop", "6", "--drop", "7"])
    try assertFails(
      ["testgen", "TRACE", "--from", "3", "--to", "9"], trace: gapped,
      line: "inspector: steps 6…7 were dropped by the recorder, so no test can replay them: "
        + "choose a range without them (gapped.rewind)")
  }

  func testEveryFixtureTraceHasItsGeneratedTestCommitted() throws {
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    for (trace, options, file) in Self.cases {
      let url = FixtureTracesEndToEndTests.traces.appendingPathComponent("\(trace).rewind")
      let output = try inspect(["testgen", "TRACE"] + options, trace: url)
      XCTAssertEqual(output.status, 0, "\(trace): \(output.err)")
      XCTAssertEqual(output.err, "", trace)
      let path = Self.generated.appendingPathComponent("\(file).swift")
      if record {
        try output.out.write(to: path, atomically: true, encoding: .utf8)
        continue
      }
      let committed = try? String(contentsOf: path, encoding: .utf8)
      XCTAssertEqual(
        committed, output.out,
        "\(file).swift is not what testgen prints for \(trace).rewind: regenerate it with "
          + "RECORD_SNAPSHOTS=1 swift test --skip-build --filter TestgenContractTests")
    }
  }
}

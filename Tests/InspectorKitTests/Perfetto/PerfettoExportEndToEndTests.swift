import Foundation
import XCTest

/// `inspector export --format perfetto`, run as a process on every committed fixture trace and
/// on the sample traces: each document obeys the Trace Event Format's rules
/// (`TraceEventValidator`), shows every step and effect, and draws the arrows.
final class PerfettoExportEndToEndTests: EndToEndTestCase {
  static let fixtures = ["counter", "weather", "folder-tab", "home", "todos", "todos-buggy"]

  /// The parsed events of an export, after checking the document against the format.
  func timeline(_ trace: URL, _ options: [String] = [], file: StaticString = #filePath,
    line: UInt = #line) throws -> [[String: Any]]
  {
    let output = try inspect(["export", "TRACE", "--format", "perfetto"] + options, trace: trace)
    XCTAssertEqual(output.status, 0, output.err, file: file, line: line)
    XCTAssertEqual(output.err, "", file: file, line: line)
    let data = Data(output.out.utf8)
    XCTAssertEqual(
      TraceEventValidator.problems(in: data), [], "\(trace.lastPathComponent)",
      file: file, line: line)
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
    return try XCTUnwrap(document["traceEvents"] as? [[String: Any]], file: file, line: line)
  }

  func testEveryFixtureTraceIsAValidTimelineWithEveryStepEffectAndArrow() throws {
    for name in Self.fixtures {
      let trace = FixtureTracesEndToEndTests.traces.appendingPathComponent("\(name).rewind")
      let info = try inspect(["info", "TRACE", "--json"], trace: trace)
      let summary = try XCTUnwrap(
        try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
      let steps = try XCTUnwrap(summary["steps"] as? Int)
      let effects = try XCTUnwrap(summary["effects"] as? Int)
      let events = try timeline(trace)
      let slices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "step" }
      XCTAssertEqual(
        slices.map { ($0["args"] as? [String: Any])?["step"] as? Int }, Array(0...steps), name)
      let starts = events.filter { $0["ph"] as? String == "b" }
      XCTAssertEqual(starts.count, effects, name)
      XCTAssertEqual(events.filter { $0["ph"] as? String == "e" }.count, effects, name)
      // Every effect has its arrow from the step that started it…
      XCTAssertEqual(starts.filter { $0["flow_in"] as? Bool == true }.count, effects, name)
      // … and every step an effect sent has its arrow from that effect.
      let sent = slices.filter {
        (($0["args"] as? [String: Any])?["origin"] as? String)?.hasPrefix("effect:") == true
      }
      XCTAssertFalse(sent.isEmpty, name)
      for slice in sent {
        XCTAssertEqual(slice["flow_in"] as? Bool, true, "\(name) \(slice)")
      }
    }
  }

  func testTheSampleTimeline() throws {
    try assertInspector(["export", "TRACE", "--format", "perfetto"])
  }

  func testDroppedStepsAreAMarkedInterval() throws {
    let gapped = try writeSample(named: "gapped.rewind", ["--drop", "6", "--drop", "7"])
    let events = try timeline(gapped)
    let gaps = events.filter { $0["cat"] as? String == "gap" }
    XCTAssertEqual(gaps.count, 1)
    let gap = try XCTUnwrap(gaps.first)
    XCTAssertEqual(gap["name"] as? String, "2 steps dropped")
    XCTAssertEqual(gap["tid"] as? Int, 2)
    // From the end of step 5's slice to the start of step 8's.
    let slices = Dictionary(
      uniqueKeysWithValues: events.compactMap { event -> (Int, [String: Any])? in
        guard event["cat"] as? String == "step",
          let step = (event["args"] as? [String: Any])?["step"] as? Int
        else { return nil }
        return (step, event)
      })
    let before = try XCTUnwrap(slices[5])
    let after = try XCTUnwrap(slices[8])
    XCTAssertNil(slices[6])
    XCTAssertNil(slices[7])
    let start = try XCTUnwrap(before["ts"] as? Double) + XCTUnwrap(before["dur"] as? Double)
    XCTAssertEqual(try XCTUnwrap(gap["ts"] as? Double), start, accuracy: 0.0005)
    XCTAssertEqual(
      try XCTUnwrap(gap["dur"] as? Double), try XCTUnwrap(after["ts"] as? Double) - start,
      accuracy: 0.0005)
  }

  func testARangeHoldsItsStepsAndTheEffectsTheyStarted() throws {
    let trace = FixtureTracesEndToEndTests.traces.appendingPathComponent("folder-tab.rewind")
    let events = try timeline(trace, ["--from", "8", "--to", "20"])
    let steps = events.compactMap { event -> Int? in
      guard event["cat"] as? String == "step" else { return nil }
      return (event["args"] as? [String: Any])?["step"] as? Int
    }
    XCTAssertEqual(steps, Array(8...20))
    for start in events where start["ph"] as? String == "b" {
      let started = try XCTUnwrap((start["args"] as? [String: Any])?["startedByStep"] as? Int)
      XCTAssertTrue((8...20).contains(started), "\(start)")
    }
  }
}

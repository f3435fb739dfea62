import Foundation
import XCTest

/// Compares text with a snapshot file, `<directory>/<name>.txt`, in the manner of
/// swift-argument-parser's end-to-end tests. A missing or different snapshot fails the test;
/// with `RECORD_SNAPSHOTS=1` in the environment the file is (re)written instead and the test
/// passes, so snapshots change only when someone asks for it.
///
/// ```swift
/// assertSnapshot(output, named: "testInfo", in: snapshotDirectory(#filePath))
/// // fails: "Snapshot testInfo differs (line 3): expected 'steps 12', got 'steps 13' …"
/// ```
package func assertSnapshot(
  _ actual: String, named name: String, in directory: String,
  file: StaticString = #filePath, line: UInt = #line
) {
  let path = directory + "/" + name + ".txt"
  let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  if recording {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      try actual.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      XCTFail("Could not record snapshot \(path): \(error)", file: file, line: line)
    }
    return
  }
  guard let data = FileManager.default.contents(atPath: path) else {
    XCTFail(
      "No snapshot \(name) at \(path); run with RECORD_SNAPSHOTS=1 to record it. Actual:\n"
        + actual, file: file, line: line)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  if let message = snapshotDifference(expected: expected, actual: actual) {
    XCTFail(
      "Snapshot \(name) differs \(message)\n(RECORD_SNAPSHOTS=1 re-records it)\nActual:\n"
        + actual, file: file, line: line)
  }
}

/// The `Snapshots` folder next to the test file that calls it.
package func snapshotDirectory(_ testFile: String = #filePath) -> String {
  URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
    .path
}

/// Where two texts first differ, or nil when they are equal.
///
/// ```swift
/// snapshotDifference(expected: "a\nb\n", actual: "a\nc\n")
/// // "(line 2): expected \"b\", got \"c\""
/// ```
package func snapshotDifference(expected: String, actual: String) -> String? {
  guard expected != actual else { return nil }
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  for index in 0..<max(expectedLines.count, actualLines.count) {
    let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
    let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
    if want != got {
      return "(line \(index + 1)): expected \(want.debugDescription), got \(got.debugDescription)"
    }
  }
  return "(line endings)"
}

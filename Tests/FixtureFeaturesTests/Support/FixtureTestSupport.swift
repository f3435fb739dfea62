import ComposableTesting
import Foundation
import XCTest

/// A fixed "now" for tests: 2026-05-12 08:00:00 UTC (the seed's study date, before school).
let testNow = Date(timeIntervalSince1970: 1_778_572_800)

extension TestClock {
  /// Waits until `count` tasks sleep on the clock, so that an `advance` that follows measures
  /// from the moment they went to sleep even on a loaded machine. Fails after a generous
  /// timeout (never a speed assertion: it only bounds a hang).
  func waitForSleepers(
    _ count: Int,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while sleeperCount < count {
      guard ContinuousClock.now < deadline else {
        XCTFail("\(sleeperCount) sleepers on the clock, expected \(count)", file: file, line: line)
        return
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}

/// Encodes a value to JSON and decodes it back, as the Recorder and typed replay do.
func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
  try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
}

/// A value's JSON with sorted keys, for exact-text assertions.
func json<Value: Encodable>(_ value: Value) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

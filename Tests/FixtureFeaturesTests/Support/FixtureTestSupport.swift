import ComposableTesting
import Foundation
import XCTest

/// A fixed "now" for tests: 2026-05-12 08:00:00 UTC (the seed's study date, before school).
let testNow = Date(timeIntervalSince1970: 1_778_572_800)

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

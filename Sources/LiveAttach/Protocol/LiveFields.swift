import Foundation
import TraceKit

/// The fields of a received message, read with the checks the protocol makes: each field of
/// the type it must have, every integer in its range.
///
/// ```swift
/// let fields = try LiveFields(message)
/// try fields.int("step", in: 0...Int(Int32.max))   // or .malformed("'step' is …")
/// ```
struct LiveFields {
  let fields: [TraceField]

  init(_ value: TraceValue) throws(LiveProtocolError) {
    guard case .object(let fields) = value else {
      throw .malformed("a message is a JSON object")
    }
    self.fields = fields
  }

  func value(_ key: String) -> TraceValue? {
    fields.first { $0.key == key }?.value
  }

  func has(_ key: String) -> Bool {
    guard let value = value(key) else { return false }
    if case .null = value { return false }
    return true
  }

  func string(_ key: String) throws(LiveProtocolError) -> String {
    guard case .string(let text)? = value(key) else {
      throw .malformed("'\(key)' is not a string")
    }
    return text
  }

  func optionalString(_ key: String) throws(LiveProtocolError) -> String? {
    has(key) ? try string(key) : nil
  }

  func bool(_ key: String) throws(LiveProtocolError) -> Bool {
    guard case .bool(let flag)? = value(key) else { throw .malformed("'\(key)' is not a bool") }
    return flag
  }

  /// An integer within `range` (steps and counts are never negative, and fit an `Int`).
  func int(_ key: String, in range: ClosedRange<Int> = 0...Int.max) throws(LiveProtocolError)
    -> Int
  {
    guard let found = value(key) else { throw .malformed("'\(key)' is missing") }
    guard case .int(let number) = found, let value = Int(exactly: number),
      range.contains(value)
    else {
      if range == 0...Int.max {
        throw .malformed("'\(key)' is not a non-negative integer")
      }
      throw .malformed("'\(key)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
    }
    return value
  }

  func optionalInt(_ key: String, in range: ClosedRange<Int> = 0...Int.max)
    throws(LiveProtocolError) -> Int?
  {
    has(key) ? try int(key, in: range) : nil
  }

  /// A non-negative 64-bit count (nanoseconds).
  func uint64(_ key: String) throws(LiveProtocolError) -> UInt64 {
    switch value(key) {
    case .int(let number)? where number >= 0: return UInt64(number)
    case .uint(let number)?: return number
    default: throw .malformed("'\(key)' is not a non-negative integer")
    }
  }

  func double(_ key: String) throws(LiveProtocolError) -> Double {
    switch value(key) {
    case .double(let number)? where number.isFinite: return number
    case .int(let number)?: return Double(number)
    default: throw .malformed("'\(key)' is not a number")
    }
  }

  /// A 64-bit hash written as 16 hex digits.
  func hash(_ key: String) throws(LiveProtocolError) -> UInt64 {
    let text = try string(key)
    guard text.utf8.count == 16, let hash = UInt64(text, radix: 16) else {
      throw .malformed("'\(key)' is not 16 hex digits")
    }
    return hash
  }

  func uuid(_ key: String) throws(LiveProtocolError) -> UUID {
    guard let id = UUID(uuidString: try string(key)) else {
      throw .malformed("'\(key)' is not a UUID")
    }
    return id
  }

  func optionalUUID(_ key: String) throws(LiveProtocolError) -> UUID? {
    guard let text = try optionalString(key) else { return nil }
    guard let id = UUID(uuidString: text) else { throw .malformed("'\(key)' is not a UUID") }
    return id
  }

  func array(_ key: String) throws(LiveProtocolError) -> [TraceValue] {
    guard case .array(let elements)? = value(key) else {
      throw .malformed("'\(key)' is not an array")
    }
    return elements
  }

  func strings(_ key: String) throws(LiveProtocolError) -> [String] {
    var strings: [String] = []
    for element in try array(key) {
      guard case .string(let text) = element else {
        throw .malformed("'\(key)' holds something that is not a string")
      }
      strings.append(text)
    }
    return strings
  }

  func required(_ key: String) throws(LiveProtocolError) -> TraceValue {
    guard let value = value(key) else { throw .malformed("'\(key)' is missing") }
    return value
  }
}

/// Builds the fields of a message to send.
struct LiveObject {
  var fields: [TraceField] = []

  init(type: String) {
    fields.append(TraceField("type", .string(type)))
  }

  mutating func set(_ key: String, _ value: TraceValue) {
    fields.append(TraceField(key, value))
  }

  mutating func set(_ key: String, _ value: Int) {
    fields.append(TraceField(key, .int(Int64(value))))
  }

  mutating func set(_ key: String, _ value: Int?) {
    fields.append(TraceField(key, value.map { .int(Int64($0)) } ?? .null))
  }

  mutating func set(_ key: String, _ value: UInt64) {
    fields.append(TraceField(key, Self.integer(value)))
  }

  mutating func set(_ key: String, _ value: String?) {
    fields.append(TraceField(key, value.map { .string($0) } ?? .null))
  }

  mutating func set(_ key: String, _ value: Bool) {
    fields.append(TraceField(key, .bool(value)))
  }

  mutating func set(_ key: String, hash: UInt64) {
    set(key, .string(Self.hex(hash)))
  }

  /// A hash as 16 hex digits.
  static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// A count as the protocol writes it (`.uint` only above `Int64.max`).
  static func integer(_ value: UInt64) -> TraceValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  var value: TraceValue { .object(fields) }
}

/// A recorded value: a small, deterministic tree that can hold the state or the action of any
/// program, whether or not the reader knows the program's Swift types.
///
/// ```swift
/// let value: TraceValue = .object([
///   TraceField("count", .int(1)),
///   TraceField("mode", .enumCase("loading", [])),
/// ])
/// print(value)  // (count: 1, mode: .loading)
/// ```
///
/// Objects keep their keys in order, so that two encodings of the same Swift value are the same
/// tree (and hash the same) in every process.
///
/// Only `.reflected` is `indirect`: arrays, fields and strings already live in their own heap
/// buffers, so boxing every case would add one allocation per node (a leaf `.int` included),
/// which dominated encoding, parsing and hashing time when measured.
public enum TraceValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  /// An unsigned integer above `Int64.max`; smaller unsigned values are stored as `.int`.
  case uint(UInt64)
  case double(Double)
  case string(String)
  case bytes([UInt8])
  case array([TraceValue])
  /// A struct, class or dictionary: fields in a fixed order.
  case object([TraceField])
  /// An enum case: its name and its associated values, labelled as Swift's synthesized
  /// `Codable` labels them (`_0`, `_1`, … for unlabelled values).
  case enumCase(String, [TraceField])
  /// A value that was not `Encodable` and was captured by reflection: read-only, it can be shown
  /// and diffed but never decoded back into a Swift value.
  indirect case reflected(typeName: String, TraceValue)
}

/// One named field of an object or of an enum case's associated values.
public struct TraceField: Sendable, Hashable {
  public var key: String
  public var value: TraceValue

  public init(_ key: String, _ value: TraceValue) {
    self.key = key
    self.value = value
  }
}

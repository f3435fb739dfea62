/// Why a JSON value is not a `TraceChange` in the shape `TraceChange.jsonValue` writes.
///
/// ```swift
/// do { _ = try TraceChange(jsonValue: .object([])) } catch { print(error) }
/// // invalid trace change: expected a string "op"
/// ```
public struct TraceChangeFormatError: Error, Sendable, Hashable, CustomStringConvertible {
  public var reason: String

  public init(_ reason: String) {
    self.reason = reason
  }

  public var description: String { "invalid trace change: \(reason)" }
}

/// Why a text could not be read as a `TraceValue`: the byte offset where reading stopped and
/// what was expected there.
///
/// ```swift
/// do { _ = try TraceValue(json: "[1, 2") } catch { print(error) }
/// // invalid trace JSON at byte 5: expected ',' or ']' in array
/// ```
public struct TraceValueError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Zero-based byte offset into the UTF-8 input.
  public var offset: Int
  /// What was wrong, phrased as what was expected.
  public var reason: String

  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String {
    "invalid trace JSON at byte \(offset): \(reason)"
  }
}

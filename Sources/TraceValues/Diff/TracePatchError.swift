/// Why a change could not be applied: the change's path and what was found instead.
///
/// ```swift
/// var value = TraceValue.array([])
/// do {
///   try TraceDiff.apply([.remove(TracePath([.index(2)]))], to: &value)
/// } catch { print(error) }
/// // cannot apply remove at [2]: index 2 is out of range for an array of 0 elements
/// ```
public struct TracePatchError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `set`, `remove` or `insert`.
  public var operation: String
  /// The full path of the change that failed.
  public var path: TracePath
  public var reason: String

  public init(operation: String, path: TracePath, reason: String) {
    self.operation = operation
    self.path = path
    self.reason = reason
  }

  public var description: String {
    "cannot apply \(operation) at \(path): \(reason)"
  }
}

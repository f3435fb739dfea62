/// A value the reducer read from a non-deterministic dependency during a step, stored so typed
/// replay can serve it back.
///
/// ```swift
/// let read = DependencyRead(key: "uuid", value: .string("00000000-0000-0000-0000-000000000001"))
/// ```
public struct DependencyRead: Sendable, Hashable {
  /// The dependency's name, e.g. `uuid`, `date`, `random`.
  public var key: String
  public var value: TraceValue

  public init(key: String, value: TraceValue) {
    self.key = key
    self.value = value
  }
}

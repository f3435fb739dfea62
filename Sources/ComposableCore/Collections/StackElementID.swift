/// The identity of an element of a `StackState`: made when the element is pushed, never reused
/// within a store (ids count up from 0: a generation).
///
/// ```swift
/// var path = StackState<Int>()
/// path.append(42)
/// path.ids       // [#0]
/// path.removeAll()
/// path.append(7)
/// path.ids       // [#1]
/// ```
///
/// In tests an integer literal names one (`store.send(.path(.element(id: 0, action: …)))`).
public struct StackElementID: Hashable, Sendable, Comparable {
  /// The element's number among the ids the generator made.
  package var generation: Int

  package init(generation: Int) {
    self.generation = generation
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.generation < rhs.generation
  }
}

extension StackElementID: ExpressibleByIntegerLiteral {
  /// The id of generation `value`, for tests (`.element(id: 0, action: …)`); reported outside
  /// tests, where ids come from pushing elements.
  public init(integerLiteral value: Int) {
    if DependencyValues.inForce.context != .test {
      reportIssue(
        """
        Specifying stack element IDs by integer literal is not allowed outside of tests.

        In tests, integer literal stack element IDs can be used as a shorthand to the \
        auto-incrementing generation of the current dependency context. This can be useful \
        when asserting against actions received by a specific element.
        """)
    }
    self.init(generation: value)
  }
}

extension StackElementID: CustomStringConvertible, CustomDebugStringConvertible {
  /// `#3`.
  public var description: String { "#\(generation)" }
  public var debugDescription: String { description }
}

extension StackElementID: CustomReflectable {
  /// Reflects as a leaf, so dumps and diffs show `#3`.
  public var customMirror: Mirror {
    Mirror(self, children: [:])
  }
}

extension StackElementID: Codable {
  /// Encodes as its generation: `3`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(generation: try container.decode(Int.self))
  }
}

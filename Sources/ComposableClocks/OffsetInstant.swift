/// A point in a test clock's time: an offset from the moment the clock started. The instant of
/// `TestClock` and `ImmediateClock`.
///
/// ```swift
/// let start = OffsetInstant()
/// start.advanced(by: .seconds(2)).offset              // 2 seconds
/// start.duration(to: OffsetInstant(offset: .seconds(5)))  // 5 seconds
/// ```
public struct OffsetInstant: InstantProtocol, Hashable, Sendable {
  /// Time since the clock started.
  public var offset: Duration

  public init(offset: Duration = .zero) {
    self.offset = offset
  }

  public func advanced(by duration: Duration) -> OffsetInstant {
    OffsetInstant(offset: offset + duration)
  }

  public func duration(to other: OffsetInstant) -> Duration {
    other.offset - offset
  }

  public static func < (lhs: OffsetInstant, rhs: OffsetInstant) -> Bool {
    lhs.offset < rhs.offset
  }
}

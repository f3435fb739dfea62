/// Steps the recorder dropped: `dropped` steps after `afterStep` are not in the trace.
///
/// ```swift
/// print(TraceGap(afterStep: 99, dropped: 5))  // 5 steps dropped after step 99
/// ```
public struct TraceGap: Sendable, Hashable, CustomStringConvertible {
  public var afterStep: Int
  public var dropped: Int

  public init(afterStep: Int, dropped: Int) {
    self.afterStep = afterStep
    self.dropped = dropped
  }

  public var description: String { "\(dropped) steps dropped after step \(afterStep)" }
}

/// One row of the uncompressed step index, as the reader returns it.
///
/// ```swift
/// for row in try reader.rows(from: 1, to: 3) {
///   print(row.step, row.actionPath, row.changedPaths)  // 1 counter.increment ["count"]
/// }
/// ```
public struct StepRow: Sendable, Hashable {
  public var step: Int
  public var monotonicNanos: UInt64
  public var wallTime: Double
  public var origin: StepOrigin
  public var actionPath: String
  public var changedPaths: [String]
  public var stateHash: UInt64
  public var reducerNanos: UInt64

  public init(
    step: Int, monotonicNanos: UInt64, wallTime: Double, origin: StepOrigin,
    actionPath: String, changedPaths: [String], stateHash: UInt64, reducerNanos: UInt64
  ) {
    self.step = step
    self.monotonicNanos = monotonicNanos
    self.wallTime = wallTime
    self.origin = origin
    self.actionPath = actionPath
    self.changedPaths = changedPaths
    self.stateHash = stateHash
    self.reducerNanos = reducerNanos
  }
}

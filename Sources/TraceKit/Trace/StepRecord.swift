/// One step as the recorder hands it to the writer: the index columns and the payload.
///
/// ```swift
/// let record = StepRecord(
///   step: 1, monotonicNanos: 1_500, wallTime: 1_780_000_000, origin: .user,
///   actionPath: "counter.increment", action: .enumCase("increment", []),
///   changes: [.set(TracePath([.key("count")]), .int(1))], changedPaths: ["count"],
///   stateHash: 0x1234, reducerNanos: 300)
/// ```
public struct StepRecord: Sendable {
  public var step: Int
  /// Nanoseconds since the trace started.
  public var monotonicNanos: UInt64
  /// Seconds since 1970.
  public var wallTime: Double
  public var origin: StepOrigin
  /// The action's case path, e.g. `folderTab.calendar.dateSelected` ("" for step 0).
  public var actionPath: String
  /// The action (`.null` for step 0).
  public var action: TraceValue
  /// The diff from the previous step's state.
  public var changes: [TraceChange]
  /// `TracePath` descriptions of the changed paths, deduplicated.
  public var changedPaths: [String]
  /// The stable hash of the whole state after the step.
  public var stateHash: UInt64
  public var reducerNanos: UInt64
  /// Values read from non-deterministic dependencies (uuid, date, random) during the step.
  public var dependencies: [DependencyRead]

  public init(
    step: Int, monotonicNanos: UInt64, wallTime: Double, origin: StepOrigin,
    actionPath: String, action: TraceValue, changes: [TraceChange], changedPaths: [String],
    stateHash: UInt64, reducerNanos: UInt64, dependencies: [DependencyRead] = []
  ) {
    self.step = step
    self.monotonicNanos = monotonicNanos
    self.wallTime = wallTime
    self.origin = origin
    self.actionPath = actionPath
    self.action = action
    self.changes = changes
    self.changedPaths = changedPaths
    self.stateHash = stateHash
    self.reducerNanos = reducerNanos
    self.dependencies = dependencies
  }
}

/// One step's index row.
package struct StepEntry: Sendable, Equatable {
  package var step: Int
  package var monotonicNanos: UInt64
  package var wallTime: Double
  package var origin: StepSource
  package var actionPath: String
  package var changedPaths: [String]
  package var stateHash: UInt64
  package var reducerNanos: UInt64

  package init(
    step: Int, monotonicNanos: UInt64, wallTime: Double, origin: StepSource, actionPath: String,
    changedPaths: [String], stateHash: UInt64, reducerNanos: UInt64
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

import TraceKit

/// One reduced action as the main actor saw it; encoded later by the writer.
@usableFromInline
struct CapturedStep<State: Sendable, Action: Sendable>: Sendable {
  var step: Int
  var monotonicNanos: UInt64
  var origin: StepOrigin
  var action: Action
  var state: State
  var reducerNanos: UInt64
  var dependencies: [DependencyRead]

  @usableFromInline
  init(
    step: Int, monotonicNanos: UInt64, origin: StepOrigin, action: Action, state: State,
    reducerNanos: UInt64, dependencies: [DependencyRead]
  ) {
    self.step = step
    self.monotonicNanos = monotonicNanos
    self.origin = origin
    self.action = action
    self.state = state
    self.reducerNanos = reducerNanos
    self.dependencies = dependencies
  }
}

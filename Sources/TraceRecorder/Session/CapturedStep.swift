import ComposableCore
import Foundation
import TraceKit

/// One reduced action as the main actor saw it; encoded later by the writer.
@usableFromInline
struct CapturedStep<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline var facts: StepFacts
  @usableFromInline var action: Action
  @usableFromInline var state: State

  @inlinable
  init(facts: StepFacts, action: Action, state: State) {
    self.facts = facts
    self.action = action
    self.state = state
  }
}

/// What a captured step holds besides its action and state.
@usableFromInline
struct StepFacts: Sendable {
  var step: Int
  var monotonicNanos: UInt64
  var origin: StepOrigin
  /// The recorded effect whose record lists this step as sent (its origin, when that
  /// effect's start is in the trace).
  var sender: UUID?
  var reducerNanos: UInt64
  /// In the order read; the writer describes them (`traceRead`).
  var dependencies: [DependencyValueRead]
}

import Foundation
import TraceKit

/// One reduced action as the main actor saw it; encoded later by the writer.
struct CapturedStep<State: Sendable, Action: Sendable>: Sendable {
  var step: Int
  var monotonicNanos: UInt64
  var origin: StepOrigin
  /// The recorded effect whose record lists this step as sent (its origin, when that
  /// effect's start is in the trace).
  var sender: UUID?
  var action: Action
  var state: State
  var reducerNanos: UInt64
  var dependencies: [DependencyRead]
}

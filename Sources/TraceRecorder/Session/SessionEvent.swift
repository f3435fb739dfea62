import ComposableCore
import Dispatch
import Foundation
import TraceKit

/// What the main actor hands the background writer.
@usableFromInline
enum SessionEvent<State: Sendable, Action: Sendable>: Sendable {
  /// The state before the first recorded action: step 0.
  case start(state: State, wallTime: Double)
  case step(CapturedStep<State, Action>)
  case effectStarted(CapturedEffect)
  case effectSent(UUID, step: Int)
  /// A `tentative` ending (an operation that saw its task cancelled) gives way to the reason
  /// the store reports on the main actor, which may arrive before or after it.
  case effectEnded(UUID, nanos: UInt64, outcome: EffectOutcome, tentative: Bool)
  /// Closes the trace; `trailingGap` counts steps dropped after the last queued one.
  case finish(trailingGap: (afterStep: Int, dropped: Int)?, done: FinishSignal)
}

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

/// An effect the wrapped reducer returned; its cancellation ids are described by the writer.
@usableFromInline
struct CapturedEffect: Sendable {
  var id: UUID
  var startedByStep: Int
  var cancelIDs: [EffectCancelID]
  var location: SourceLocation?
  var startNanos: UInt64
}

/// Lets `finish()` wait for the writer to close the file.
@usableFromInline
final class FinishSignal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  func signal() { semaphore.signal() }
  func wait() { semaphore.wait() }
}

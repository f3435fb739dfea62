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

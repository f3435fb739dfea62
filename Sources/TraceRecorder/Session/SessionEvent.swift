import ComposableCore
import Foundation
import TraceKit

/// What the main actor hands the background writer.
@usableFromInline
enum SessionEvent<State: Sendable, Action: Sendable>: Sendable {
  /// The state the store was created with: step 0.
  case start(state: State, wallTime: Double)
  /// A reduced action; a step sent by an effect also records that the effect sent it.
  case step(CapturedStep<State, Action>)
  /// A step an attached inspector made without an action (a jump, a continue); the facts'
  /// origin says which.
  case inspectorStep(StepFacts, state: State)
  case effect(EffectEvent)
  /// Closes the trace: the effect events that never found room (drop policy), then
  /// `trailingGap`, the steps dropped after the last queued one.
  case finish(
    trailingGap: (afterStep: Int, dropped: Int)?, effects: [EffectEvent], done: FinishSignal)
}

import TraceKit

/// The steps of a replay as the driver calls them, made by code specialized for the feature's
/// types (see `ReplayEngine`).
///
/// ```swift
/// let reduced = try steps.reduce(step)
/// ```
@usableFromInline
struct ReplaySteps {
  /// Runs the reducer on a step's action; what its effect asks of the store.
  @usableFromInline let reduce: (RecordedStep) throws(ReplayError) -> ReducedStep
  /// An inspector's jump: the state becomes the one the trace recorded at the step.
  @usableFromInline let jump: (RecordedStep) throws(ReplayError) -> Void
  /// Hands the state after a step (the `order`th replayed, counted from 0) to the checking
  /// stage; false once the stage found a failing state, so that the replay stops.
  @usableFromInline let checkState: (_ step: RecordedStep, _ order: Int) -> Bool
  /// Waits until every state handed over is checked; the first that failed, if any.
  @usableFromInline let settle: () -> StateFailure?
  /// How the state type fails to hold a recorded state as recorded (a shape change).
  @usableFromInline let shapeDifference: (TraceValue) -> String?

  @inlinable
  init(
    reduce: @escaping (RecordedStep) throws(ReplayError) -> ReducedStep,
    jump: @escaping (RecordedStep) throws(ReplayError) -> Void,
    checkState: @escaping (RecordedStep, Int) -> Bool,
    settle: @escaping () -> StateFailure?,
    shapeDifference: @escaping (TraceValue) -> String?
  ) {
    self.reduce = reduce
    self.jump = jump
    self.checkState = checkState
    self.settle = settle
    self.shapeDifference = shapeDifference
  }
}

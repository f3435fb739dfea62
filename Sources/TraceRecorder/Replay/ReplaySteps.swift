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
  /// The replayed state when it does not hash as the step recorded; nil when it does.
  @usableFromInline let stateMismatch: (RecordedStep) throws(ReplayError) -> TraceValue?
  /// How the state type fails to hold a recorded state as recorded (a shape change).
  @usableFromInline let shapeDifference: (TraceValue) -> String?

  @inlinable
  init(
    reduce: @escaping (RecordedStep) throws(ReplayError) -> ReducedStep,
    jump: @escaping (RecordedStep) throws(ReplayError) -> Void,
    stateMismatch: @escaping (RecordedStep) throws(ReplayError) -> TraceValue?,
    shapeDifference: @escaping (TraceValue) -> String?
  ) {
    self.reduce = reduce
    self.jump = jump
    self.stateMismatch = stateMismatch
    self.shapeDifference = shapeDifference
  }
}

import TraceKit

/// The first replayed step whose state did not check out, as the checking stage found it:
/// its state hashed otherwise than recorded (`replayed` is that state, encoded for the
/// report), or encoding it failed (`replayed` is the error).
///
/// ```swift
/// if let failure = steps.settle() {
///   print(failure.order, failure.step.step)  // 14 15: 14 steps matched before step 15
/// }
/// ```
@usableFromInline
struct StateFailure {
  /// How many replayed steps came before it (all of them matched).
  @usableFromInline var order: Int
  @usableFromInline var step: RecordedStep
  @usableFromInline var replayed: Result<TraceValue, ReplayError>

  @inlinable
  init(order: Int, step: RecordedStep, replayed: Result<TraceValue, ReplayError>) {
    self.order = order
    self.step = step
    self.replayed = replayed
  }
}

import TraceKit

/// What a chaos schedule calls into, made by code specialized for the feature's types
/// (see `ReplayEngine`, whose `chaosSteps` they are).
@usableFromInline
struct ChaosSteps {
  /// Puts the state back to the initial one.
  @usableFromInline let reset: () -> Void
  /// Runs a unit's action and the `.send`s it brings (see `ChaosEngine.runBatch`).
  @usableFromInline let runBatch: (RecordedStep, Bool) throws(ReplayError) -> [ChaosStep]
  /// The hash of the state as the recorder would encode it (the step names errors).
  @usableFromInline let stateHash: (Int) throws(ReplayError) -> UInt64
  @usableFromInline let encodedState: (Int) throws(ReplayError) -> TraceValue

  @inlinable
  init(
    reset: @escaping () -> Void,
    runBatch: @escaping (RecordedStep, Bool) throws(ReplayError) -> [ChaosStep],
    stateHash: @escaping (Int) throws(ReplayError) -> UInt64,
    encodedState: @escaping (Int) throws(ReplayError) -> TraceValue
  ) {
    self.reset = reset
    self.runBatch = runBatch
    self.stateHash = stateHash
    self.encodedState = encodedState
  }
}

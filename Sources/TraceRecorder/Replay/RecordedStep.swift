import TraceKit

/// What the trace holds of one step, as replay needs it: where its action came from, the
/// action, the dependency values its reducer read and the hash of the state after it.
///
/// ```swift
/// RecordedStep(
///   step: 2, origin: .send(step: 1), actionPath: "loaded", stateHash: 0x5f1d…,
///   action: .enumCase("loaded", []), actionID: 3, dependencies: [])
/// ```
@usableFromInline
struct RecordedStep {
  @usableFromInline var step: Int
  @usableFromInline var origin: StepOrigin
  @usableFromInline var actionPath: String
  @usableFromInline var stateHash: UInt64
  @usableFromInline var action: TraceValue
  /// Names the action's bytes: steps with the same id have the same action (see
  /// `RecordedActions`).
  @usableFromInline var actionID: Int
  @usableFromInline var dependencies: [DependencyRead]

  /// Whether the store reduced it in the batch of an earlier step (a synchronous `.send`).
  var isSend: Bool {
    if case .send = origin { return true }
    return false
  }
}

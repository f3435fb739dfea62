import ComposableCore
import TraceKit

/// One step a chaos schedule reduced: what its effect asks of the store and, when a report
/// is being made, its action.
@usableFromInline
struct ChaosStep {
  @usableFromInline var cancellations: [(id: EffectCancelID, reason: EffectCancelReason)] = []
  @usableFromInline var events: [EffectShape.Event] = []
  @usableFromInline var action: TraceValue?

  @inlinable
  init() {}
}

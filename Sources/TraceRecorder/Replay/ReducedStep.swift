import ComposableCore
import TraceKit

/// What the replayed reducer's effect for one step asks of the store, without its action type:
/// the cancellations performed while it ran, the tasks its launch starts (with its cancels in
/// flight), and its synchronous `.send`s, encoded.
@usableFromInline
struct ReducedStep {
  @usableFromInline var cancellations: [(id: EffectCancelID, reason: EffectCancelReason)]
  @usableFromInline var events: [EffectShape.Event]
  @usableFromInline var sends: [TraceValue]

  @inlinable
  init(
    cancellations: [(id: EffectCancelID, reason: EffectCancelReason)] = [],
    events: [EffectShape.Event] = [], sends: [TraceValue] = []
  ) {
    self.cancellations = cancellations
    self.events = events
    self.sends = sends
  }
}

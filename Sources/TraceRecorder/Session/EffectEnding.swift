import Foundation
import TraceKit

/// The end of an effect as the session writes it into a slot of its queue (the slot's kind
/// `.effectEnded`): the fields of `EffectEvent.ended` in a struct, written in place.
///
/// Built as an `EffectEvent` the end was assembled on the stack (the enum's 144 bytes, the id's
/// 16 bytes stored one by one) and copied into the slot; the struct's fields are stored
/// straight into the slot, the id as its two words. The writer puts the event back together
/// (`event`) when it takes the slot.
///
/// ```swift
/// EffectEnding.initialize(
///   slot, payload: effectPayload, id: id, nanos: 1_200, outcome: .finished, afterStep: 7)
/// // the writer's `take` gets
/// // .effect(.ended(id.uuid, nanos: 1_200, outcome: .finished, afterStep: 7))
/// ```
@usableFromInline
struct EffectEnding: Sendable {
  /// The effect's id: its 16 bytes as two words, in memory order.
  @usableFromInline var id: (UInt64, UInt64)
  @usableFromInline var nanos: UInt64
  @usableFromInline var outcome: EffectOutcome
  /// How many steps had been reduced when it ended.
  @usableFromInline var afterStep: Int

  init(id: UUID, nanos: UInt64, outcome: consuming EffectOutcome, afterStep: Int) {
    self.id = withUnsafeBytes(of: id.uuid) { bytes in
      (
        bytes.loadUnaligned(as: UInt64.self),
        bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      )
    }
    self.nanos = nanos
    self.outcome = outcome
    self.afterStep = afterStep
  }

  /// The effect's id as a UUID, its bytes as they were given.
  @inlinable
  var uuid: UUID {
    UUID(uuid: withUnsafeBytes(of: id) { $0.loadUnaligned(as: uuid_t.self) })
  }

  /// The event the writer handles.
  @inlinable
  consuming func event() -> EffectEvent {
    .ended(uuid, nanos: nanos, outcome: outcome, afterStep: afterStep)
  }
}

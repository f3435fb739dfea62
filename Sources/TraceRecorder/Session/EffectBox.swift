import ComposableCore
import Foundation
import Synchronization

/// One effect the recorder follows: its trace id and whether its ending was recorded.
///
/// Endings race (the operation returns on a background thread while the main actor cancels
/// it); whichever claims the box first writes the ending, so each effect ends once.
///
/// ```swift
/// let box = EffectBox(id: EffectID.next().uuid, cancelIDs: [])
/// box.claimEnd()  // true
/// box.claimEnd()  // false
/// ```
@usableFromInline
final class EffectBox: Sendable {
  @usableFromInline let id: UUID
  let cancelIDs: [EffectCancelID]
  @usableFromInline let ended = Atomic<Bool>(false)

  init(id: UUID, cancelIDs: [EffectCancelID]) {
    self.id = id
    self.cancelIDs = cancelIDs
  }

  /// Whether this caller is the one that records the ending.
  @inlinable
  func claimEnd() -> Bool {
    !ended.exchange(true, ordering: .acquiringAndReleasing)
  }

  var isEnded: Bool { ended.load(ordering: .acquiring) }
}

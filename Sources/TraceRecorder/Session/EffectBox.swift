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
final class EffectBox: Sendable {
  let id: UUID
  let cancelIDs: [EffectCancelID]
  private let ended = Atomic<Bool>(false)

  init(id: UUID, cancelIDs: [EffectCancelID]) {
    self.id = id
    self.cancelIDs = cancelIDs
  }

  /// Whether this caller is the one that records the ending.
  func claimEnd() -> Bool {
    !ended.exchange(true, ordering: .acquiringAndReleasing)
  }

  var isEnded: Bool { ended.load(ordering: .acquiring) }
}

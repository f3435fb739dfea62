import ComposableCore
import Foundation

/// An effect the store started, as the core reported it; its cancellation ids are described
/// by the writer.
@usableFromInline
struct CapturedEffect: Sendable {
  /// The core's id of the effect.
  var id: UUID
  var startedByStep: Int
  var cancelIDs: [EffectCancelID]
  var location: SourceLocation?
  var startNanos: UInt64
  var kind: EffectLaunch.Kind
  /// The concatenation whose task started it.
  var parent: UUID?
  /// How many steps had been reduced when it started.
  var startedAfterStep: Int
}

import ComposableCore
import Foundation

/// An effect the store started, as the core reported it; its cancellation ids are described
/// by the writer.
///
/// The core's report is kept whole: the session moves it here from `effectStarted`, so that
/// capturing an effect copies no field of it (its cancellation ids are not retained again).
///
/// ```swift
/// // An effect step 4's reducer returned, launched after that step at 1,200 ns:
/// let effect = CapturedEffect(launch: launch, startNanos: 1_200, startedAfterStep: 4)
/// effect.startedByStep  // 4: launch.step
/// ```
@usableFromInline
struct CapturedEffect: Sendable {
  /// What the core reported: the effect's id, step, kind, parent, cancellation ids, location.
  var launch: EffectLaunch
  var startNanos: UInt64
  /// How many steps had been reduced when it started.
  var startedAfterStep: Int

  /// The core's id of the effect.
  var id: UUID { launch.id.uuid }
  var startedByStep: Int { launch.step }
  var cancelIDs: [EffectCancelID] { launch.cancelIDs }
  var location: SourceLocation? { launch.location }
  var kind: EffectLaunch.Kind { launch.kind }
  /// The concatenation whose task started it.
  var parent: UUID? { launch.parent?.uuid }
}

import Foundation
import TraceKit

/// The start or the end of an effect, as the session hands it to the writer (not generic, so
/// that the session keeps one waiting without touching generic metadata).
///
/// ```swift
/// EffectEvent.ended(id, nanos: 1_200, outcome: .finished, afterStep: 7)
/// ```
@usableFromInline
enum EffectEvent: Sendable {
  case started(CapturedEffect)
  /// `afterStep`: how many steps had been reduced when it ended.
  case ended(UUID, nanos: UInt64, outcome: EffectOutcome, afterStep: Int)
}

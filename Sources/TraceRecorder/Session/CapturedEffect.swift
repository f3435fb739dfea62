import ComposableCore
import Foundation

/// An effect the wrapped reducer returned; its cancellation ids are described by the writer.
@usableFromInline
struct CapturedEffect: Sendable {
  var id: UUID
  var startedByStep: Int
  var cancelIDs: [EffectCancelID]
  var location: SourceLocation?
  var startNanos: UInt64
}

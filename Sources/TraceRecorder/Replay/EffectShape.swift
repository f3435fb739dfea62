import ComposableCore
import TraceKit

/// A task the replayed reducer's effect starts, without the effect's action type: what the
/// `EffectLedger` pairs with the tasks the trace recorded.
///
/// ```swift
/// EffectShape(kind: .run, cancelIDs: [search], location: nil, events: [], sends: [])
///   .described(step: 7)  // `search` (run, step 7)
/// ```
@usableFromInline
struct EffectShape {
  @usableFromInline var kind: EffectLaunch.Kind
  @usableFromInline var cancelIDs: [EffectCancelID]
  @usableFromInline var location: SourceLocation?
  /// For a concatenation: what its task does.
  @usableFromInline var events: [Event]
  /// For a concatenation: the actions its task sends, in order.
  @usableFromInline var sends: [TraceValue]

  @usableFromInline
  enum Event {
    case cancelInFlight(EffectCancelID)
    case start(EffectShape)
  }

  @inlinable
  init(
    kind: EffectLaunch.Kind, cancelIDs: [EffectCancelID], location: SourceLocation?,
    events: [Event], sends: [TraceValue]
  ) {
    self.kind = kind
    self.cancelIDs = cancelIDs
    self.location = location
    self.events = events
    self.sends = sends
  }

  /// The tasks its parts start, in order (a concatenation's children).
  var children: [EffectShape] {
    events.compactMap {
      if case .start(let child) = $0 { child } else { nil }
    }
  }

  func described(step: Int, texts: CancelIDTexts) -> ReplayEffect {
    ReplayEffect(
      kind: kind.rawValue, cancelID: texts.text(of: cancelIDs), startedByStep: step,
      location: location.map { "\($0.fileID):\($0.line)" })
  }
}

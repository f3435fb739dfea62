/// An effect a root core started: what `StoreInstrument.effectStarted(_:)` is told.
///
/// ```swift
/// // return .run { … }.cancellable(id: "timer") from step 4, inside row 7 of \.rows:
/// // EffectLaunch(id: 5F0C…, step: 4, kind: .run, parent: nil,
/// //   cancelIDs: [forEach(rows)#7, timer @ [forEach(rows)#7]], location: Row.swift:12)
/// ```
@usableFromInline
package struct EffectLaunch: Sendable, Hashable {
  /// What the core runs for the effect.
  @usableFromInline
  package enum Kind: String, Sendable, Hashable {
    /// The task of an `Effect.run`.
    case run
    /// The task that runs the parts of a concatenation after its first asynchronous part.
    case concatenation
  }

  /// The core's id of the effect: every later report about it uses this id.
  package var id: EffectID
  /// The step whose reducer returned the effect.
  package var step: Int
  package var kind: Kind
  /// The concatenation that started this part of it, if it is one.
  package var parent: EffectID?
  /// The cancellation ids the effect was registered under, outermost first, as created (the
  /// core also registers each under every prefix of its navigation path).
  package var cancelIDs: [EffectCancelID]
  /// Where `Effect.run` was called, when known.
  package var location: SourceLocation?

  package init(
    id: EffectID, step: Int, kind: Kind, parent: EffectID?, cancelIDs: [EffectCancelID],
    location: SourceLocation?
  ) {
    self.id = id
    self.step = step
    self.kind = kind
    self.parent = parent
    self.cancelIDs = cancelIDs
    self.location = location
  }
}

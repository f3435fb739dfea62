/// The per-step bookkeeping of a `RecordingSession` (main actor only).
@usableFromInline
struct HotState {
  @usableFromInline var started = false
  @usableFromInline var step = 0
  @usableFromInline var lastQueuedStep = 0
  @usableFromInline var droppedSinceLastQueued = 0
  @usableFromInline var pendingSyncSends = 0
  /// The effect whose `send` is running: the action reduced now came from it.
  @usableFromInline var sendingEffect: EffectBox?

  @usableFromInline init() {}
}

/// Where a recording session puts an effect's start or end as it happens: a reserved slot of
/// its queue, or its list of events kept back (drop policy, queue full), or nowhere (the
/// recording stopped). Not generic, so that the session decides without touching its feature's
/// types.
///
/// ```swift
/// switch effectEventPlace() {
/// case .slot(let slot):
///   EffectEvent.initialize(slot, payload: effectPayload, to: event)
///   queue.publish()
/// case .keptBack: keep(event)
/// case .nowhere: break
/// }
/// ```
enum EffectEventPlace {
  /// A reserved slot: the caller writes the event there, then publishes it.
  case slot(UnsafeMutableRawPointer)
  /// No room under the drop policy: kept back, queued before any later step.
  case keptBack
  /// The queue is closed: the recording took its last event.
  case nowhere
}

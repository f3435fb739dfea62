/// A report that a store cancelled effects, for instrumentation (the Recorder).
///
/// ```swift
/// // A reducer that wraps the root reducer receives these by conforming to
/// // `EffectCancellationObserving`:
/// func effectsCancelled(_ cancellation: EffectCancellation) {
///   // cancellation.ids: [EffectCancelID] as the core stores them (navigation-scoped)
///   // cancellation.reason: .cancelEffect, .cancelInFlight, .teardown(.forEach), …
/// }
/// ```
package struct EffectCancellation: Sendable, Equatable {
  /// Why effects were cancelled.
  package enum Reason: Sendable, Hashable {
    /// A reducer returned `Effect.cancel(id:)`.
    case cancelEffect
    /// `.cancellable(id:cancelInFlight: true)` started and cancelled its predecessors.
    case cancelInFlight
    /// `ifLet` / `forEach` / presentation removed a child.
    case teardown(NavigationID.Kind)
    /// The store went away: every running effect was cancelled.
    case storeDeinit
    /// `StoreTask.cancel()` was called.
    case storeTaskCancel
    /// A test store skipped the effects in flight (`skipInFlightEffects()`).
    case skippedInFlight
  }

  /// The cancellation ids involved: the one cancelled (for `.cancelEffect`, `.cancelInFlight`,
  /// `.teardown`), or every id of every cancelled effect (deinit, store task).
  package var ids: [EffectCancelID]
  /// Why.
  package var reason: Reason
  /// The core's ids of the effect tasks that were cancelled (may be empty).
  package var effectIDs: [EffectID]
}

/// Adopted by a reducer that wants to hear about cancellations (the Recorder). The root
/// store's core calls it on the main actor whenever it cancels effects; a `TestStore` forwards
/// to the reducer it tests.
package protocol EffectCancellationObserving {
  /// Called after the effects were cancelled.
  func effectsCancelled(_ cancellation: EffectCancellation)
}

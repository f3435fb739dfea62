/// Why a root core cancelled effects: what `StoreInstrument.effectsCancelled` is told.
///
/// ```swift
/// // case .stop: return .cancel(id: "timer")
/// // effectsCancelled([5F0C…], cause: .cancel("timer"), step: 6)
/// ```
@usableFromInline
package enum EffectCancelCause: Sendable, Hashable, CustomStringConvertible {
  /// A reducer created `Effect.cancel(id:)` with this id, or an effect called
  /// `Task.cancel(id:)` (no step caused that one).
  case cancel(EffectCancelID)
  /// `.cancellable(id:cancelInFlight: true)` started and cancelled its predecessors.
  case cancelInFlight(EffectCancelID)
  /// `ifLet`, `forEach`, presentation or a navigation stack tore a child down.
  case teardown(NavigationID.Kind)
  /// The store went away.
  case storeTeardown
  /// `StoreTask.cancel()` was called on the task of a send.
  case storeTask
  /// A test store skipped the effects in flight.
  case testSkip
  /// An attached inspector continued from a jumped state: the effect was started by a step of
  /// the future it abandoned.
  case abandonedFuture

  @usableFromInline package var description: String {
    switch self {
    case .cancel(let id): "cancel(\(id))"
    case .cancelInFlight(let id): "cancelInFlight(\(id))"
    case .teardown(let kind): "teardown(\(kind.rawValue))"
    case .storeTeardown: "storeTeardown"
    case .storeTask: "storeTask"
    case .testSkip: "testSkip"
    case .abandonedFuture: "abandonedFuture"
    }
  }
}

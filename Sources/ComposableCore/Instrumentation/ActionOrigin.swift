/// Where an action a root core reduces came from: the origin of a step, as the core knows it.
///
/// ```swift
/// store.send(.refresh)                 // .user
/// return .send(.refreshStarted)        // .send(step: 1): returned by step 1's reducer
/// .run { send in await send(.loaded) } // .effect(id): the id the core gave that effect
/// ```
@usableFromInline
package enum ActionOrigin: Sendable, Hashable, CustomStringConvertible {
  /// Sent from outside the store: a view, a test, other code (re-entrant sends included).
  case user
  /// Sent by a running effect (a `.run`, or a concatenation sending after an asynchronous part).
  case effect(EffectID)
  /// A synchronous `.send` effect returned by the reducer of step `step`.
  case send(step: Int)
  /// Sent from an observation callback while the store notified its observers.
  case observer
  /// Sent by an inspector attached to the running store.
  case inspector

  @usableFromInline package var description: String {
    switch self {
    case .user: "user"
    case .effect(let id): "effect \(id)"
    case .send(let step): "send of step \(step)"
    case .observer: "observer"
    case .inspector: "inspector"
    }
  }
}

extension Effect {
  /// The effect, cancellable with `Effect.cancel(id:)`.
  ///
  /// The id is stored with the navigation path of the reducer that creates the effect, so the
  /// same id used by two `forEach` rows names two different things.
  ///
  /// ```swift
  /// return .run { send in … }.cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value.
  ///   - cancelInFlight: Cancel the effects already running under `id` before starting this one.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = node { return .none }
    let cancelID = EffectCancelID(
      id: AnyHashableSendable(id),
      navigationIDPath: DependencyValues.inForce.navigationIDPath
    )
    return Effect(node: .cancellable(id: cancelID, cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels the running effects with the given id, in the navigation path of
  /// the reducer that creates it or deeper (a parent's `.cancel(id:)` reaches its children's
  /// effects with that id; two siblings do not reach each other's).
  ///
  /// Created inside a reducer that a store runs, it cancels at once, while that reducer runs
  /// (a child's `onCancel` handlers run before the parent reducer that runs after it); the
  /// returned value still describes the cancellation.
  ///
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self {
    let cancelID = EffectCancelID(
      id: AnyHashableSendable(id),
      navigationIDPath: DependencyValues.inForce.navigationIDPath
    )
    let performed = EffectCancelReason.performNow(cancelID, reason: .cancelEffect)
    return Effect(node: .cancel(id: cancelID, reason: .cancelEffect, isPerformed: performed))
  }

  /// The cancellation of a child's effects that `ifLet`, `forEach` or presentation return when
  /// the child goes away; performed at once when a store is reducing.
  @inlinable
  package static func teardown(_ cancelID: EffectCancelID, kind: NavigationID.Kind) -> Self {
    let performed = EffectCancelReason.performNow(cancelID, reason: .teardown(kind))
    return Effect(node: .cancel(id: cancelID, reason: .teardown(kind), isPerformed: performed))
  }

  /// Whether the effect does nothing asynchronous (no `.run` anywhere in it).
  @usableFromInline package var isSynchronous: Bool {
    switch node {
    case .none, .send, .cancel:
      return true
    case .run:
      return false
    case let .merge(children), let .concatenate(children):
      return children.allSatisfy(\.isSynchronous)
    case let .cancellable(_, _, child):
      return child.isSynchronous
    }
  }
}

extension EffectCancelReason {
  /// Performs a cancellation at once on the store reducing on this thread, if one is; returns
  /// whether there was one (not generic: the effect constructors inline around it).
  @usableFromInline
  static func performNow(_ id: EffectCancelID, reason: EffectCancelReason) -> Bool {
    ReducingContext.cancelNow(id, reason: reason)
  }
}

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
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = node { return .none }
    let cancelID = EffectCancelID(
      id: AnyHashableSendable(id),
      navigationIDPath: DependencyValues.current.navigationIDPath
    )
    return Effect(node: .cancellable(id: cancelID, cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels the running effects with the given id (in the navigation path of the
  /// reducer that creates it).
  ///
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  public static func cancel(id: some Hashable & Sendable) -> Self {
    let cancelID = EffectCancelID(
      id: AnyHashableSendable(id),
      navigationIDPath: DependencyValues.current.navigationIDPath
    )
    return Effect(node: .cancel(id: cancelID, reason: .cancelEffect))
  }

  /// Whether the effect does nothing asynchronous (no `.run` anywhere in it).
  package var isSynchronous: Bool {
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

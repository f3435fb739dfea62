extension Effect {
  /// An effect that cancels the running effects with any of the given ids (in the navigation
  /// path of the reducer that creates it).
  ///
  /// ```swift
  /// case .stopAllTapped:
  ///   return .cancel(ids: [CancelID.timer, CancelID.search])
  /// ```
  public static func cancel(ids: some Sequence<some Hashable & Sendable>) -> Self {
    .merge(ids.map { Effect.cancel(id: $0) })
  }
}

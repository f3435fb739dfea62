extension Effect {
  /// The effect, started only once no other effect with the same id was started for
  /// `duration`: each new one cancels the one waiting (or running) before it.
  ///
  /// ```swift
  /// case let .queryChanged(query):
  ///   state.query = query
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// The wait is a `.run` that sleeps on `clock`, concatenated before the effect, and the
  /// whole is `cancellable(id:cancelInFlight: true)`, as upstream.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value; scoped by the navigation path like
  ///     `cancellable(id:)`.
  ///   - duration: How long no other effect with this id must be started.
  ///   - clock: The clock to wait on; the `continuousClock` dependency in force when the effect
  ///     is created when omitted.
  @inlinable
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: (any Clock<Duration>)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    if case .none = node { return .none }
    let clock = clock ?? DependencyValues.inForce.continuousClock
    return Effect.concatenating(
      .run(
        operation: { _ in try await clock.sleep(for: duration) },
        fileID: fileID, filePath: filePath, line: line, column: column),
      self
    )
    .cancellable(id: id, cancelInFlight: true)
  }
}

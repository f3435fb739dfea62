/// Runs an operation that `Task.cancel(id:)`, `Effect.cancel(id:)` and a later
/// `withTaskCancellation(id:cancelInFlight: true)` with the same id can cancel.
///
/// Inside an effect the id is scoped like `Effect.cancellable(id:)`: by the store and by the
/// navigation path of the reducer that created the effect.
///
/// ```swift
/// return .run { send in
///   try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///     try await clock.sleep(for: .milliseconds(300))
///     await send(.searchResponse(try await api.search(query)))
///   }
/// }
/// ```
///
/// - Parameters:
///   - id: Any hashable, sendable value.
///   - cancelInFlight: Cancel the operations and effects running under `id` first.
///   - operation: The work; it runs in a child task that cancelling `id` cancels.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws; `CancellationError` when it was cancelled and stopped so.
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let (registry, cancelID) = taskCancellation(id: id)
  if cancelInFlight {
    registry.cancel(cancelID, isolation: isolation)
  }
  let task = Task { try await operation() }
  let token = registry.register(cancelID) { task.cancel() }
  defer { registry.unregister(token, from: cancelID) }
  return try await withTaskCancellationHandler {
    try await task.value
  } onCancel: {
    task.cancel()
  }
}

/// Runs an operation that cannot fail under a cancellation id: the non-throwing form of
/// `withTaskCancellation(id:cancelInFlight:operation:)`, for operations that handle their own
/// cancellation.
///
/// ```swift
/// let saved = await withTaskCancellation(id: CancelID.save) { await store.flush() }
/// ```
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async -> T
) async -> T {
  let (registry, cancelID) = taskCancellation(id: id)
  if cancelInFlight {
    registry.cancel(cancelID, isolation: isolation)
  }
  let task = Task { await operation() }
  let token = registry.register(cancelID) { task.cancel() }
  defer { registry.unregister(token, from: cancelID) }
  return await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the operations of `withTaskCancellation(id:)` and, inside an effect, the effects
  /// of the same store made `cancellable(id:)` with this id — from anywhere, not only from a
  /// reducer.
  ///
  /// ```swift
  /// return .run { send in
  ///   Task.cancel(id: CancelID.timer)   // stops the timer effect
  ///   await send(.timerStopped)
  /// }
  /// ```
  ///
  /// On the main actor the cancellation happens before this returns; elsewhere the operations
  /// are cancelled at once and the store's effects when the main actor runs next (before
  /// anything the caller sends to the store afterwards).
  public static func cancel(
    id: some Hashable & Sendable,
    isolation: isolated (any Actor)? = #isolation
  ) {
    let (registry, cancelID) = taskCancellation(id: id)
    registry.cancel(cancelID, isolation: isolation)
  }
}

/// The registry in force and the id as it is registered there (with the navigation path of
/// the reducer that created the running effect).
private func taskCancellation(
  id: some Hashable & Sendable
) -> (EffectScope, EffectCancelID) {
  let registry = EffectScope.current ?? .outsideStores
  let cancelID = EffectCancelID(
    id: AnyHashableSendable(id),
    navigationIDPath: DependencyValues.inForce.navigationIDPath
  )
  return (registry, cancelID)
}

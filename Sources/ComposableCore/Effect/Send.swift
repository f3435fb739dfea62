/// Sends actions back into the store from an `Effect.run`.
///
/// Main-actor isolated; calling it after the effect's task was cancelled does nothing.
///
/// ```swift
/// return .run { send in
///   await send(.started)
///   try await clock.sleep(for: .seconds(1))
///   await send(.finished)
/// }
/// ```
@MainActor
public struct Send<Action: Sendable>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a send from a closure (used by stores, test stores and instrumentation).
  public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends an action, unless the current task was cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}

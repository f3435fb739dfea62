import ComposableClocks
import ComposableCore
import Locking

/// The effects one `TestStore.send` started, as a test handles them: cancelled where a view
/// would cancel them, or waited for.
///
/// ```swift
/// let task = await store.send(.task)      // a long-living effect, as a view's `.task`
/// await store.receive(.tick) { $0.ticks = 1 }
/// await task.cancel()                    // the view went away
/// ```
public struct TestStoreTask: Hashable, Sendable {
  /// The store's task for the effects.
  public let rawValue: StoreTask
  let timeout: Duration

  init(rawValue: StoreTask, timeout: Duration) {
    self.rawValue = rawValue
    self.timeout = timeout
  }

  /// Cancels the effects and waits until they have stopped.
  @MainActor
  public func cancel() async {
    rawValue.cancel()
    await rawValue.finish()
  }

  /// Waits for the effects to finish; reports a failure at the caller's line when they still
  /// run after `timeout` (the store's by default).
  ///
  /// ```swift
  /// await store.send(.save).finish()
  /// ```
  @MainActor
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let finished = Lock(false)
    let waiter = Task { [rawValue] in
      await rawValue.finish()
      finished.withLock { $0 = true }
    }
    guard !(await poll(timeout: timeout) { finished.withLock { $0 } }) else { return }
    waiter.cancel()
    reportIssue(
      "Expected the task to finish, but it was still running after \(describe(timeout)).",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Whether the effects were cancelled.
  public var isCancelled: Bool {
    rawValue.isCancelled
  }
}

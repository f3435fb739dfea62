import ComposableCore

extension Store {
  /// Waits until every running effect of this root store sleeps on `clock` (or has finished):
  /// from then on nothing happens until the clock moves, whatever the machine's speed.
  ///
  /// ```swift
  /// store.send(.startTimer)
  /// await store.waitForIdleEffects(on: clock)   // the timer sleeps
  /// await clock.advance(by: .seconds(1))
  /// await store.waitForIdleEffects(on: clock)   // it ticked and sleeps again
  /// store.state.ticks                           // 1
  /// ```
  ///
  /// An effect that waits on something other than `clock` (another clock, a stream that is
  /// never fed) never becomes idle: the wait reports an issue at the caller's line after
  /// `timeout` (a bound on a hang, not a speed requirement). Sleepers on `clock` must all be
  /// this store's effects.
  @discardableResult
  public func waitForIdleEffects(
    on clock: TestClock,
    timeout: Duration = .seconds(30),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    guard let counting = core as? any PendingOperationCounting else {
      reportIssue(
        """
        "waitForIdleEffects(on:)" was called on a scoped store; call it on the root store, \
        which runs the effects.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return false
    }
    let idle = await poll(timeout: timeout) {
      counting.pendingOperationCount == clock.sleeperCount
    }
    if !idle {
      reportIssue(
        """
        Expected every effect of the store to sleep on the test clock, but \
        \(counting.pendingOperationCount) effect(s) were running and \(clock.sleeperCount) \
        task(s) slept after \(timeout).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return idle
  }
}

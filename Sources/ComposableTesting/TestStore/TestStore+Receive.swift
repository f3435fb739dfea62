import ComposableCore

extension TestStore where Action: Equatable {
  /// Asserts that an effect sent this action next, and how it changed the state.
  ///
  /// ```swift
  /// await store.send(.load)
  /// await store.receive(.loaded("ok")) { $0.loaded = "ok" }
  /// ```
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { $0 == expectedAction },
      description: describeCase(expectedAction),
      mismatch: { received in
        """
        Received unexpected action:

        \(StateDiff.render(expectedAction, received))

        (Expected: -, Received: +)
        """
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      location: location
    )
  }
}

extension TestStore {
  /// Asserts that an effect sent an action of this case next, and how it changed the state.
  ///
  /// ```swift
  /// await store.receive(.loaded) { $0.loaded = "ok" }   // any payload
  /// ```
  public func receive<Value>(
    _ casePath: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { casePath.extract($0) != nil },
      description: "an action of the expected case",
      mismatch: { received in
        """
        Received unexpected action: the case path did not extract a value from it.

          \(describeCase(received))
        """
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      location: location
    )
  }

  /// Asserts that an effect sent an action of the case a case key path names next, and how
  /// it changed the state.
  ///
  /// ```swift
  /// await store.receive(\.child.loaded) { $0.child.text = "ok" }   // any payload
  /// ```
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      AnyCasePath(actionCase), timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that an effect sent, next, the action of a case with this payload.
  ///
  /// ```swift
  /// await store.receive(\.child.loaded, "ok") { $0.child.text = "ok" }
  /// ```
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { casePath.extract($0) == value },
      description: describeCase(casePath.embed(value)),
      mismatch: { received in
        """
        Received unexpected action:

        \(StateDiff.render(casePath.embed(value), received))

        (Expected: -, Received: +)
        """
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      location: location
    )
  }

  /// Sends the action of a case with this payload, and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.send(\.binding.name, "Blob") { $0.name = "Blob" }
  /// ```
  @discardableResult
  public func send<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      AnyCasePath(actionCase).embed(value), assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends the action of a case without payload, and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.send(\.view.refreshTapped)
  /// ```
  @discardableResult
  public func send(
    _ actionCase: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      AnyCasePath(actionCase).embed(()), assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that an effect sent an action satisfying a predicate next.
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: isMatching,
      description: "an action matching the predicate",
      mismatch: { received in
        """
        Received unexpected action: the predicate did not match it.

          \(describeCase(received))
        """
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      location: location
    )
  }

  func receive(
    matching: (Action) -> Bool,
    description: String,
    mismatch: (Action) -> String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    location: SourceLocation
  ) async {
    lastLocation = location
    let timeout = timeout ?? self.timeout
    guard await waitForReceivedAction(timeout: timeout, matching: matching) else {
      let ending =
        core.effectsInFlight.isEmpty && log.received.isEmpty
        ? "." : " after \(describe(timeout))."
      fail("Expected to receive \(description), but received none\(ending)", at: location)
      return
    }
    if exhaustivity == .on {
      let received = log.received.removeFirst()
      guard matching(received.action) else {
        fail(mismatch(received.action), at: location)
        state = received.state
        await settleEffects()
        return
      }
      assertState(
        actual: received.state, update: update, stackElementIDs: received.stackElementIDs,
        location: location)
    } else {
      guard let index = log.received.firstIndex(where: { matching($0.action) }) else {
        fail(
          """
          Expected to receive \(description), but none of the \
          \(plural(log.received.count, "received action")) matched:

          \(listActions(log.received.map(\.action)))
          """,
          at: location
        )
        skipReceived()
        return
      }
      if index > 0 {
        if case .off(showSkippedAssertions: true) = exhaustivity {
          showSkipped(
            """
            Skipped receiving \(plural(index, "action")):

            \(listActions(log.received.prefix(index).map(\.action)))
            """,
            at: location)
        }
        state = log.received[index - 1].state
      }
      let received = log.received[index]
      log.received.removeFirst(index + 1)
      assertState(
        actual: received.state, update: update, stackElementIDs: received.stackElementIDs,
        location: location)
    }
    await settleEffects()
  }

  /// Gives an effect that just sent the received action the moment it needs to return (it
  /// runs off the main actor): waits while the number of effects in flight keeps changing,
  /// a few rounds at most, so a test that ends right after `receive` does not see it running.
  func settleEffects() async {
    var last = core.effectsInFlight.count
    var stableRounds = 0
    var rounds = 0
    while last > 0, stableRounds < 2, rounds < 10 {
      await Task.pause()
      rounds += 1
      let count = core.effectsInFlight.count
      if count == last {
        stableRounds += 1
      } else {
        stableRounds = 0
        last = count
      }
    }
  }

  /// Waits until an action was received; `false` when none came in time (or none can come).
  ///
  /// Exhaustive, any action will do (the next one must be the expected one); non-exhaustive,
  /// it waits for one that `matching` accepts, as the actions before it are skipped.
  private func waitForReceivedAction(
    timeout: Duration, matching: (Action) -> Bool
  ) async -> Bool {
    func arrived() -> Bool {
      exhaustivity == .on
        ? !log.received.isEmpty : log.received.contains { matching($0.action) }
    }
    if arrived() { return true }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    await Task.megaYield()
    while !arrived() {
      if core.effectsInFlight.isEmpty {
        // Nothing can send an action any more; give finished effects' last sends a moment.
        await Task.megaYield()
        return !log.received.isEmpty
      }
      guard ContinuousClock.now < deadline else { return !log.received.isEmpty }
      await Task.pause()
    }
    return true
  }
}

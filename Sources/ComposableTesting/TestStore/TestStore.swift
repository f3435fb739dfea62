import ComposableClocks
import ComposableCore

/// Runs a feature in a test and makes the test assert everything it does.
///
/// ```swift
/// @MainActor
/// func testLoad() async {
///   let store = TestStore(initialState: Counter.State()) { Counter() }
///   await store.send(.plus) { $0.count = 1 }
///   await store.send(.load)
///   await store.receive(.loaded("ok")) { $0.loaded = "ok" }
/// }
/// ```
///
/// Exhaustive by default: every state change must be asserted, every action an effect sends
/// must be received, and no effect may still run when the test ends. Failures are reported as
/// test failures with a structural `-`/`+` diff, at the line of the `send` or `receive` that
/// found them. With `exhaustivity = .off` only what the test asserts is checked;
/// `.off(showSkippedAssertions: true)` shows what was skipped without failing.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  typealias Inner = TestReducer<Reduce<State, Action>>

  /// The state as asserted so far.
  public internal(set) var state: State
  /// How strictly the store asserts.
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait by default.
  public var timeout: Duration
  /// The dependencies the store runs with (the context is `.test`).
  public let dependencies: DependencyValues

  let core: RootCore<Inner>
  let store: Store<State, Inner.TestAction>
  let log: TestLog<State, Action>
  let location: SourceLocation
  /// Where the last `send` or `receive` was, for failures found later.
  var lastLocation: SourceLocation
  /// The issue collection scope the store was created in: the end-of-test checks (run when
  /// the store goes away) report there.
  let collector: IssueCollector?
  /// Where skipped assertions are shown when a test collects them (`SkippedAssertions`).
  let skippedCollector: SkippedAssertions.Collector?

  /// A test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start with.
  ///   - reducer: The reducer under test.
  ///   - prepareDependencies: Overrides for the test (the context is `.test`).
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    TestIssueReporter.install()
    var values = DependencyValues.current
    values.context = .test
    // Stack element ids count from #0 in every test (a test can name them by literal).
    values.stackElementID = StackElementIDGenerator()
    prepareDependencies(&values)
    let (initial, base) = DependencyValues.$current.withValue(values) {
      (initialState(), reducer())
    }
    // The reducer under test brings the instrument (a Recorder), told the tested actions.
    let instrument = DependencyValues.$current.withValue(values) {
      makeInstrument(for: base).map {
        ProjectedInstrument<State, Action, Inner.TestAction>(base: $0, project: \.action)
      }
    }
    let log = TestLog<State, Action>()
    let inner = TestReducer(base: Reduce(base), log: log)
    let core = RootCore(
      initialState: initial, reducer: inner, dependencies: values, instrument: instrument)
    self.core = core
    self.store = Store(core: core, observedPrefix: [])
    self.log = log
    self.state = initial
    self.timeout = timeout
    self.dependencies = values
    self.location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    self.lastLocation = location
    self.collector = IssueReporters.currentCollector
    self.skippedCollector = SkippedAssertions.collector
  }

  isolated deinit {
    completed()
  }

  /// The checks of the end of a test: received actions handled, no effect running.
  func completed() {
    let complain: (String, SourceLocation) -> Void
    switch exhaustivity {
    case .on: complain = fail
    case .off(showSkippedAssertions: true): complain = showSkipped
    case .off: return
    }
    if !log.received.isEmpty {
      complain(
        """
        The store received \(plural(log.received.count, "unexpected action")) by the end of \
        the test:

        \(listActions(log.received.map(\.action)))

        Handle them with "receive", or skip them with "skipReceivedActions()".
        """,
        lastLocation
      )
    }
    let running = core.effectsInFlight
    if !running.isEmpty {
      complain(
        """
        \(plural(running.count, "effect")) still running at the end of the test:

        \(listEffects(running.map(\.action)))

        Effects must finish (or be cancelled) before the test ends. Wait with "finish()", \
        cancel long-living effects with an action that returns ".cancel(id:)", or call \
        "skipInFlightEffects()".
        """,
        lastLocation
      )
    }
  }

  // MARK: Exhaustivity

  /// Runs `operation` with another exhaustivity, then restores the store's.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refresh)
  ///   await store.receive(\.loaded)   // the other actions and changes are not asserted
  /// }
  /// ```
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try operation()
  }

  /// Runs an asynchronous `operation` with another exhaustivity, then restores the store's.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await operation()
  }

  // MARK: Sending

  /// Sends an action and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.send(.plus) { $0.count = 1 }
  /// ```
  ///
  /// The returned task is the life of the effects the action started: cancel it where a view
  /// would cancel them (`.task` ending), or wait for it.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one; omit
  ///     it when the state must not change.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    if !log.received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(plural(log.received.count, "received action")) before sending an \
          action:

          \(listActions(log.received.map(\.action)))
          """,
          at: location
        )
      } else {
        showSkippedReceived(at: location)
      }
      skipReceived()
    }
    let site = SendSite(
      description: "send(\(describeCase(action)))", fileID: location.fileID, line: line)
    log.stateAfterSend = nil
    let stackElementIDs = dependencies.stackElementID.incrementingCopy()
    let task = store.send(Inner.TestAction(origin: .send(action), site: site))
    let actual = log.stateAfterSend ?? core.state
    assertState(
      actual: actual,
      update: updateStateToExpectedResult,
      stackElementIDs: stackElementIDs,
      location: location
    )
    await Task.megaYield()
    return TestStoreTask(rawValue: task, timeout: timeout)
  }

  // MARK: Asserting state

  /// Checks the state an action left against the test's expectation.
  ///
  /// - Parameter stackElementIDs: The ids the reducer's pushes took, made again for the
  ///   expectation (`$0.path.append(…)` makes the id the reducer made).
  func assertState(
    actual: State,
    update: ((inout State) throws -> Void)?,
    stackElementIDs: StackElementIDGenerator,
    location: SourceLocation
  ) {
    defer { state = actual }
    var expected = exhaustivity == .on ? state : actual
    do {
      try expect(update, on: &expected, stackElementIDs: stackElementIDs)
    } catch {
      fail("Threw error: \(error)", at: location)
      return
    }
    if case .off(showSkippedAssertions: true) = exhaustivity, expected == actual {
      showSkippedState(
        actual: actual, update: update, stackElementIDs: stackElementIDs, location: location)
    }
    guard expected != actual else {
      if exhaustivity == .on, update != nil, expected == state {
        fail(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to \
          state is expected, omit the trailing closure.
          """,
          at: location
        )
      }
      return
    }
    let heading =
      update == nil && exhaustivity == .on
      ? "State was not expected to change, but a change occurred:"
      : "A state change does not match expectation:"
    fail(mismatch(heading, expected: expected, actual: actual), at: location)
  }

  /// Runs the test's expectation with the store's dependencies, the ids the reducer's pushes
  /// took among them.
  private func expect(
    _ update: ((inout State) throws -> Void)?,
    on state: inout State,
    stackElementIDs: StackElementIDGenerator
  ) throws {
    guard let update else { return }
    var values = dependencies
    values.stackElementID = stackElementIDs.incrementingCopy()
    try DependencyValues.$current.withValue(values) { try update(&state) }
  }

  private func mismatch(_ heading: String, expected: State, actual: State) -> String {
    """
    \(heading)

    \(StateDiff.render(expected, actual))

    (Expected: -, Actual: +)
    """
  }

  /// In `.off(showSkippedAssertions: true)`: what an exhaustive store would have asserted —
  /// the changes the expectation left out.
  private func showSkippedState(
    actual: State,
    update: ((inout State) throws -> Void)?,
    stackElementIDs: StackElementIDGenerator,
    location: SourceLocation
  ) {
    var exhaustive = state
    do {
      try expect(update, on: &exhaustive, stackElementIDs: stackElementIDs)
    } catch {
      return
    }
    guard exhaustive != actual else { return }
    let heading =
      update == nil
      ? "State was not expected to change, but a change occurred:"
      : "A state change does not match expectation:"
    showSkipped(mismatch(heading, expected: exhaustive, actual: actual), at: location)
  }

  /// In `.off(showSkippedAssertions: true)`: the received actions about to be skipped.
  func showSkippedReceived(at location: SourceLocation) {
    guard case .off(showSkippedAssertions: true) = exhaustivity, !log.received.isEmpty else {
      return
    }
    showSkipped(
      """
      Skipped receiving \(plural(log.received.count, "action")):

      \(listActions(log.received.map(\.action)))
      """,
      at: location)
  }

  /// Shows a skipped assertion without failing the test.
  func showSkipped(_ message: String, at location: SourceLocation) {
    SkippedAssertions.show(
      ReportedIssue(message: "Skipped assertions: …\n\n" + message, location: location),
      collector: skippedCollector)
  }

  // MARK: Skipping

  /// Drops the actions received and not asserted yet; the state becomes the latest one.
  public func skipReceivedActions() {
    skipReceived()
  }

  func skipReceived() {
    if let last = log.received.last {
      state = last.state
    }
    log.received.removeAll()
  }

  /// Cancels the effects still running, so the end of the test does not fail on them.
  public func skipInFlightEffects() {
    core.cancelAllEffects()
  }

  // MARK: Finishing

  /// Waits for every effect to finish; fails listing those still running after `timeout`.
  ///
  /// ```swift
  /// await store.send(.save)
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    let timeout = timeout ?? self.timeout
    await poll(timeout: timeout) { core.effectsInFlight.isEmpty }
    let running = core.effectsInFlight
    guard !running.isEmpty else { return }
    fail(
      """
      Expected effects to finish, but \(plural(running.count, "effect")) still running after \
      \(describe(timeout)):

      \(listEffects(running.map(\.action)))
      """,
      at: location
    )
  }

  // MARK: Reporting

  func fail(_ message: String, at location: SourceLocation) {
    report(ReportedIssue(message: message, location: location), collector: collector)
  }

  func listActions(_ actions: [Action]) -> String {
    actions.map { "  " + describeCase($0) }.joined(separator: "\n")
  }

  func listEffects(_ actions: [Inner.TestAction]) -> String {
    let lines = actions.map { action -> String in
      let started =
        switch action.origin {
        case .send: action.site.description
        case let .receive(received):
          "receive(\(describeCase(received))) after \(action.site.description)"
        }
      return "  • started by \(started) at \(action.site.fileID):\(action.site.line)"
    }
    return lines.sorted().joined(separator: "\n")
  }
}

func plural(_ count: Int, _ noun: String) -> String {
  count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}

/// `0.5 seconds`, `2 seconds`.
func describe(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let value = Double(seconds) + Double(attoseconds) / 1e18
  let text = value == value.rounded() ? String(Int64(value)) : String(value)
  return value == 1 ? "1 second" : "\(text) seconds"
}

extension Task where Success == Never, Failure == Never {
  /// Lets other tasks (effects, their bookkeeping on the main actor) make progress.
  static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task<Never, Never>.yield()
    }
  }

  /// A short real pause while polling with a timeout.
  static func pause() async {
    await megaYield(count: 5)
    try? await Task<Never, Never>.sleep(for: .milliseconds(1))
  }
}

/// The test store of a feature: `TestStoreOf<Counter>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

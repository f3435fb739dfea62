import ComposableCore
import Locking

/// A clock that only moves when it is told to: for tests, and for apps that replay a script at
/// virtual time (`rewind-demo` records its sessions on one).
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Timer.State()) { Timer() } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.start)
/// await clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.ticks = 1 }
/// ```
///
/// Sleepers wake in deadline order, and among equal deadlines in the order they fell asleep.
/// `advance(by:)` and `run()` let each woken task go on before waking the next; to know that
/// the effects of a store have all gone back to sleep, wait with `Store.waitForIdleEffects(on:)`
/// and `waitForSleepers(_:)`.
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: an offset from its start.
  public typealias Instant = OffsetInstant

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
  }

  private let state: Lock<State>

  /// A clock at `now` (offset zero by default).
  public init(now: Instant = Instant()) {
    state = Lock(State(now: now))
  }

  public var now: Instant {
    state.withLock { $0.now }
  }

  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The earliest deadline a task sleeps until, or `nil` when none sleeps.
  public var nextDeadline: Instant? {
    state.withLock { state in state.sleepers.map(\.deadline).min() }
  }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = state.withLock { state in
          if state.cancelledBeforeSleeping.remove(id) != nil {
            return .failure(CancellationError())
          }
          if deadline <= state.now {
            return .success(())
          }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome {
          continuation.resume(with: outcome)
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledBeforeSleeping.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Wakes the sleeper that is due first, if it is due by `limit`, moving time to its
  /// deadline; otherwise moves time to `limit` (never back) and returns `false`. One sleeper at
  /// a time, so the order in which woken tasks go on is fixed.
  ///
  /// ```swift
  /// while clock.wakeNextSleeper(until: end) {
  ///   await store.waitForIdleEffects(on: clock)
  /// }
  /// ```
  @discardableResult
  public func wakeNextSleeper(until limit: Instant) -> Bool {
    let woken = state.withLock { state -> Sleeper? in
      let due = state.sleepers.indices
        .filter { state.sleepers[$0].deadline <= limit }
        .min { lhs, rhs in
          let (left, right) = (state.sleepers[lhs], state.sleepers[rhs])
          return (left.deadline, left.id) < (right.deadline, right.id)
        }
      guard let due else {
        state.now = Swift.max(state.now, limit)
        return nil
      }
      state.now = Swift.max(state.now, state.sleepers[due].deadline)
      return state.sleepers.remove(at: due)
    }
    woken?.continuation.resume()
    return woken != nil
  }

  /// Moves time forward by `duration`, waking the sleepers due in it one by one and letting
  /// each run before the next is woken.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking the sleepers due by then one by one.
  public func advance(to deadline: Instant) async {
    await settle()
    while wakeNextSleeper(until: deadline) {
      await settle()
    }
  }

  /// Moves time forward until no task sleeps on the clock any more. A woken task that sleeps
  /// again is advanced too if it does so while `run` lets woken tasks run (the heuristic of
  /// `advance(by:)`); wait for a sleeper with `waitForSleepers(_:)` to be exact.
  public func run() async {
    await settle()
    while let next = nextDeadline {
      await advance(to: next)
    }
  }

  /// Waits until exactly `count` tasks sleep on the clock — e.g. until the effect a test
  /// started has gone to sleep, so that `advance` measures from then. Reports an issue at the
  /// caller's line when that does not happen within `timeout` (a bound on a hang, not a speed
  /// requirement).
  ///
  /// ```swift
  /// store.send(.startTimer)
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(1))
  /// ```
  @discardableResult
  public func waitForSleepers(
    _ count: Int,
    timeout: Duration = .seconds(30),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let reached = await poll(timeout: timeout) { self.sleeperCount == count }
    if !reached {
      reportIssue(
        """
        Expected \(count) task(s) sleeping on the test clock, but \(sleeperCount) did after \
        \(timeout).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return reached
  }

  /// Lets woken tasks run until the number of sleepers stays the same for a few rounds (an
  /// effect that wakes up usually goes back to sleep, or finishes): the heuristic of
  /// `advance(by:)`, which does not know which tasks it waits for. Waiting for a store's
  /// effects with `Store.waitForIdleEffects(on:)` is exact.
  private func settle() async {
    var last = -1
    var stableRounds = 0
    while stableRounds < 3 {
      for _ in 0..<10 { await Task.yield() }
      try? await Task.sleep(for: .milliseconds(1))
      let count = sleeperCount
      if count == last {
        stableRounds += 1
      } else {
        stableRounds = 0
        last = count
      }
    }
  }
}

/// Polls `condition` — first by yielding, then every 200 µs — until it holds or `timeout`
/// passed (a bound on a hang, never a speed requirement); whether it held. The one waiting
/// loop of the test clocks and the test store.
@discardableResult
package func poll(
  isolation: isolated (any Actor)? = #isolation,
  timeout: Duration,
  _ condition: () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  var rounds = 0
  while !condition() {
    rounds += 1
    if rounds < 64 {
      await Task.yield()
    } else {
      guard ContinuousClock.now < deadline else { return condition() }
      try? await Task.sleep(for: .microseconds(200))
    }
  }
  return true
}

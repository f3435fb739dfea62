import Synchronization

/// A clock that only moves when the test moves it.
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
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock started.
    public var offset: Duration

    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
  }

  private let state = Mutex(State())

  /// A clock at offset zero.
  public init() {}

  public var now: Instant {
    state.withLock { $0.now }
  }

  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
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

  /// Moves time forward, waking sleepers in deadline order and letting each run before the
  /// next is woken.
  public func advance(by duration: Duration = .zero) async {
    let target = now.advanced(by: duration)
    await settle()
    while true {
      let woken = state.withLock { state -> [Sleeper] in
        guard let next = state.sleepers.map(\.deadline).min(), next <= target else {
          state.now = Swift.max(state.now, target)
          return []
        }
        state.now = Swift.max(state.now, next)
        let due = state.sleepers.filter { $0.deadline <= next }
        state.sleepers.removeAll { $0.deadline <= next }
        return due
      }
      guard !woken.isEmpty else { return }
      for sleeper in woken {
        sleeper.continuation.resume()
      }
      await settle()
    }
  }

  /// Moves time forward until no task sleeps on the clock any more.
  public func run() async {
    await settle()
    while let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) {
      await advance(by: now.duration(to: next))
    }
  }

  /// Lets woken tasks run until the number of sleepers stays the same for a few rounds (an
  /// effect that wakes up usually goes back to sleep, or finishes).
  private func settle() async {
    var last = -1
    var stableRounds = 0
    while stableRounds < 3 {
      await Task.megaYield(count: 10)
      try? await Task<Never, Never>.sleep(for: .milliseconds(1))
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

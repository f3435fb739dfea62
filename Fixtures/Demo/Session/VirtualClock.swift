import Synchronization

/// A clock whose time moves only when the session driver advances it: a scripted session
/// sleeps on it so that its effects answer at the same virtual moments, in the same order, on
/// every run, however loaded the machine is.
///
/// ```swift
/// let clock = VirtualClock()
/// // an effect: try await clock.sleep(for: .milliseconds(300))
/// clock.sleeperCount         // 1
/// clock.wakeNext(until: clock.now.advanced(by: .seconds(1)))  // true: the effect runs on
/// ```
final class VirtualClock: Clock, Sendable {
  struct Instant: InstantProtocol, Hashable, Sendable {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<Int> = []
  }

  private let state = Mutex(State())

  var now: Instant {
    state.withLock { $0.now }
  }

  var minimumResolution: Duration { .zero }

  /// How many tasks sleep on the clock.
  var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The time since the session started.
  var elapsed: Duration {
    now.offset
  }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
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

  /// Wakes the one sleeper with the earliest deadline (the earliest to fall asleep among
  /// equal deadlines) if it is due by `limit`, moving time to its deadline; else moves time to
  /// `limit` and returns `false`. Waking one at a time keeps the order of their sends fixed.
  func wakeNext(until limit: Instant) -> Bool {
    let woken = state.withLock { state -> Sleeper? in
      let due = state.sleepers.enumerated()
        .filter { $0.element.deadline <= limit }
        .min { ($0.element.deadline, $0.element.id) < ($1.element.deadline, $1.element.id) }
      guard let due else {
        state.now = max(state.now, limit)
        return nil
      }
      state.now = max(state.now, due.element.deadline)
      return state.sleepers.remove(at: due.offset)
    }
    woken?.continuation.resume()
    return woken != nil
  }

  /// The earliest deadline among the sleepers.
  var nextDeadline: Instant? {
    state.withLock { state in state.sleepers.map(\.deadline).min() }
  }
}

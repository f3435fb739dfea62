import ComposableCore
import Locking

/// A feature that logs every action it handles, for ordering tests.
struct Logger: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case start
    case step(String)
    case fanOut
    case mergeRuns
    case concatenateRuns
    case longRunning
    case longRunningInFlight
    case stop
  }

  let gate = Gate()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.log.append("start")
      return .none
    case let .step(name):
      state.log.append(name)
      switch name {
      case "b": return .send(.step("d"))
      default: return .none
      }
    case .fanOut:
      state.log.append("fanOut")
      return .merge(.send(.step("b")), .send(.step("c")))
    case .mergeRuns:
      // The first run can only finish after the second has opened the gate: only
      // concurrent children finish.
      let gate = self.gate
      return .merge(
        .run { send in
          await gate.wait()
          await send(.step("first"))
        },
        .run { send in
          await send(.step("second"))
          gate.open()
        }
      )
    case .concatenateRuns:
      return .concatenate(
        .run { send in
          try await Task.sleep(for: .milliseconds(20))
          await send(.step("first"))
        },
        .run { send in await send(.step("second")) }
      )
    case .longRunning:
      return .run { send in
        try await Task.sleep(for: .seconds(1000))
        await send(.step("late"))
      }
      .cancellable(id: "long")
    case .longRunningInFlight:
      return .run { send in
        try await Task.sleep(for: .seconds(1000))
        await send(.step("late"))
      }
      .cancellable(id: "long", cancelInFlight: true)
    case .stop:
      return .cancel(id: "long")
    }
  }
}

/// A one-shot gate effects wait on.
final class Gate: Sendable {
  private let state = Lock<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Polls until a condition holds or 5 seconds passed (no speed assertion: the wait is
/// generous and only the outcome is checked).
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: .seconds(5))
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}

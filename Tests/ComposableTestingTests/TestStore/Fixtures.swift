import ComposableCore
import ComposableTesting

/// A feature with a timer on the continuous clock and a loader.
struct Timer: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
    var isRunning = false
    var message = ""
  }

  enum Action: Equatable, Sendable {
    case start
    case stop
    case tick
    case load
    case loaded(String)
    case nothing
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      let clock = self.clock
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stop:
      state.isRunning = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .load:
      return .run { send in await send(.loaded("hello")) }
    case let .loaded(message):
      state.message = message
      return .none
    case .nothing:
      return .none
    }
  }
}

extension AnyCasePath where Root == Timer.Action, Value == String {
  static var loaded: Self {
    .init(Root.loaded) { if case let .loaded(message) = $0 { message } else { nil } }
  }
}

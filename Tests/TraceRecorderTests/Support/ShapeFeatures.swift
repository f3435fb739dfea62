import ComposableCore

/// A counter as it was recorded.
struct CounterV1: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
    return .none
  }
}

/// The counter after `decrement` was renamed `subtract`.
struct CounterRenamedCase: Reducer {
  typealias State = CounterV1.State

  enum Action: Codable, Equatable, Sendable {
    case increment
    case subtract
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .subtract: state.count -= 1
    }
    return .none
  }
}

/// The counter after a `step` field was added to its state.
struct CounterAddedField: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var step = 1
  }

  typealias Action = CounterV1.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += state.step
    case .decrement: state.count -= state.step
    }
    return .none
  }
}

/// The counter after its `count` field was renamed `total`.
struct CounterRenamedField: Reducer {
  struct State: Codable, Equatable, Sendable {
    var total = 0
  }

  typealias Action = CounterV1.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.total += 1
    case .decrement: state.total -= 1
    }
    return .none
  }
}

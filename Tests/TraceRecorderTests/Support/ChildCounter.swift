import ComposableCore

/// The feature `recorder-test-child` records (same shape as its copy there), for replay.
struct ChildCounter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var last = ""
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.count += amount
      state.last = "added \(amount) to reach \(state.count), " + String(repeating: "x", count: 40)
    }
    return .none
  }
}

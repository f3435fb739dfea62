import CounterFeature

/// A user who counts up and down and asks for messages, sometimes cancelling a load or
/// starting a second one while the first is in flight.
struct CounterScenario: Scenario {
  var name: String { "counter" }
  var summary: String { "Counter: plus, minus, reset, a cancellable message load" }

  func makeReducer() -> Counter { Counter() }

  func initialState() -> Counter.State { Counter.State() }

  func nextAction(in state: Counter.State, random: inout DemoRandom) -> Counter.Action? {
    random.weighted([
      (30, .plus),
      (15, .minus),
      (5, .reset),
      (state.isLoading ? 8 : 30, .loadMessageTapped),
      (state.isLoading ? 25 : 0, .cancelLoadTapped),
    ])
  }
}

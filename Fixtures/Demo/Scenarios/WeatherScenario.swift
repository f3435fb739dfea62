import WeatherFeature

/// A user who opens the weather app, waits for the splash screen, then browses cities,
/// refreshes and switches units.
struct WeatherScenario: Scenario {
  var name: String { "weather" }
  var summary: String { "Weather: Root scoping Splash and Main, Root logs the load" }

  func makeReducer() -> Root { Root() }

  func initialState() -> Root.State { Root.State() }

  func openingActions() -> [Root.Action] { [.splash(.startLoadData)] }

  func nextAction(in state: Root.State, random: inout DemoRandom) -> Root.Action? {
    switch state.route {
    case .splash:
      // Nothing to do but wait, or retry after a failure.
      return state.splash.isLoading ? nil : .splash(.startLoadData)
    case .main:
      let city = random.pick(state.main.cities)?.id ?? 1
      return random.weighted([
        (40, .main(.citySelected(city))),
        (20, .main(.refreshTapped)),
        (20, .main(.unitToggled)),
      ])
    }
  }
}

import ComposableCore
import FixtureSupport
import Foundation

/// The weather app's root (seed 003): `Scope`s for `Splash` and `Main`, and its own `Reduce`
/// that watches the children's actions — it logs `.splash(.startLoadData)` as an analytics
/// event and moves to `Main` when the splash data arrives.
///
/// ```swift
/// let store = Store(initialState: Root.State()) { Root() }
/// store.send(.splash(.startLoadData))
/// // analyticsEvents: ["splash.loadStarted"]; later route: .main
/// ```
public struct Root: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var route: Route
    public var splash: Splash.State
    public var main: Main.State
    /// The analytics events the root logged (the seed's "분석 로그").
    public var analyticsEvents: [String]

    public init(
      route: Route = .splash,
      splash: Splash.State = Splash.State(),
      main: Main.State = Main.State(),
      analyticsEvents: [String] = []
    ) {
      self.route = route
      self.splash = splash
      self.main = main
      self.analyticsEvents = analyticsEvents
    }
  }

  /// Which screen is shown.
  public enum Route: String, Equatable, Sendable, Codable {
    case splash
    case main
  }

  public enum Action: Equatable, Sendable, Codable {
    case splash(Splash.Action)
    case main(Main.Action)
  }

  @Dependency(\.date) var date

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.splash, action: .splash) { Splash() }
    Scope(state: \.main, action: .main) { Main() }

    Reduce { state, action in
      switch action {
      case .splash(.startLoadData):
        state.analyticsEvents.append("splash.loadStarted")
        return .none

      case let .splash(.dataLoaded(.success(data))):
        state.analyticsEvents.append("splash.loaded")
        state.main = Main.State(data: data, updatedAt: date.now)
        state.route = .main
        return .none

      case .splash(.dataLoaded(.failure)):
        state.analyticsEvents.append("splash.failed")
        return .none

      case .main:
        return .none
      }
    }
  }
}

extension AnyCasePath where Root == WeatherFeature.Root.Action, Value == Splash.Action {
  /// The case path to `Root.Action.splash`.
  public static var splash: Self {
    AnyCasePath(WeatherFeature.Root.Action.splash) {
      if case let .splash(action) = $0 { action } else { nil }
    }
  }
}

extension AnyCasePath where Root == WeatherFeature.Root.Action, Value == Main.Action {
  /// The case path to `Root.Action.main`.
  public static var main: Self {
    AnyCasePath(WeatherFeature.Root.Action.main) {
      if case let .main(action) = $0 { action } else { nil }
    }
  }
}

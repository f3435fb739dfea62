// The file is not named Main.swift: SwiftPM takes a main.swift in any letter case for an
// executable's entry point.
import ComposableCore
import FixtureSupport
import Foundation

/// The main weather screen: a city's forecast, another city on request, and the unit.
///
/// ```swift
/// store.send(.main(.citySelected(2)))  // .main(.forecastLoaded(.success(Forecast(cityID: 2…))))
/// store.send(.main(.unitToggled))      // unit: .fahrenheit
/// ```
public struct Main: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var cities: [City]
    public var selectedCityID: City.ID?
    public var forecast: Forecast?
    public var unit: TemperatureUnit
    public var isRefreshing: Bool
    public var errorMessage: String?
    /// When the shown forecast arrived (read from the `date` dependency).
    public var updatedAt: Date?

    public init(
      cities: [City] = [],
      selectedCityID: City.ID? = nil,
      forecast: Forecast? = nil,
      unit: TemperatureUnit = .celsius,
      isRefreshing: Bool = false,
      errorMessage: String? = nil,
      updatedAt: Date? = nil
    ) {
      self.cities = cities
      self.selectedCityID = selectedCityID
      self.forecast = forecast
      self.unit = unit
      self.isRefreshing = isRefreshing
      self.errorMessage = errorMessage
      self.updatedAt = updatedAt
    }

    /// The screen as the splash data opens it.
    public init(data: InitialData, updatedAt: Date?) {
      self.init(
        cities: data.cities,
        selectedCityID: data.forecast.cityID,
        forecast: data.forecast,
        updatedAt: updatedAt
      )
    }

    /// The shown temperature in the chosen unit, e.g. "18°C" or "64°F".
    public var temperatureText: String? {
      guard let forecast else { return nil }
      switch unit {
      case .celsius:
        return "\(forecast.temperatureCelsius)°C"
      case .fahrenheit:
        return "\(forecast.temperatureCelsius * 9 / 5 + 32)°F"
      }
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case citySelected(City.ID)
    case refreshTapped
    case forecastLoaded(FetchResult<Forecast>)
    case unitToggled
  }

  enum CancelID: Hashable, Sendable {
    case forecast
  }

  @Dependency(\.weatherClient) var weatherClient
  @Dependency(\.date) var date

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .citySelected(cityID):
      guard cityID != state.selectedCityID else { return .none }
      state.selectedCityID = cityID
      return load(&state, cityID: cityID)

    case .refreshTapped:
      guard let cityID = state.selectedCityID else { return .none }
      return load(&state, cityID: cityID)

    case let .forecastLoaded(.success(forecast)):
      state.isRefreshing = false
      state.forecast = forecast
      state.updatedAt = date.now
      return .none

    case let .forecastLoaded(.failure(failure)):
      state.isRefreshing = false
      state.errorMessage = failure.message
      return .none

    case .unitToggled:
      state.unit = state.unit == .celsius ? .fahrenheit : .celsius
      return .none
    }
  }

  /// Loads a city's forecast; a newer request replaces the one in flight.
  func load(_ state: inout State, cityID: City.ID) -> Effect<Action> {
    state.isRefreshing = true
    state.errorMessage = nil
    let weatherClient = self.weatherClient
    return .run { send in
      let result = try await FetchResult { try await weatherClient.fetchForecast(cityID) }
      await send(.forecastLoaded(result))
    }
    .cancellable(id: CancelID.forecast, cancelInFlight: true)
  }
}

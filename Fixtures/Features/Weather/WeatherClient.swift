import ComposableCore
import FixtureSupport

/// Loads the weather app's data.
///
/// ```swift
/// @Dependency(\.weatherClient) var weatherClient
/// let data = try await weatherClient.fetchInitialData()
/// data.cities.map(\.name)  // ["Seoul", "Busan", "Jeju"]
/// ```
public struct WeatherClient: Sendable {
  /// The cities and the first city's forecast.
  public var fetchInitialData: @Sendable () async throws -> InitialData
  /// The forecast of one city.
  public var fetchForecast: @Sendable (_ cityID: City.ID) async throws -> Forecast

  public init(
    fetchInitialData: @escaping @Sendable () async throws -> InitialData,
    fetchForecast: @escaping @Sendable (_ cityID: City.ID) async throws -> Forecast
  ) {
    self.fetchInitialData = fetchInitialData
    self.fetchForecast = fetchForecast
  }
}

extension WeatherClient {
  /// The cities every client knows.
  public static let cities = [
    City(id: 1, name: "Seoul"),
    City(id: 2, name: "Busan"),
    City(id: 3, name: "Jeju"),
  ]

  /// The live client: seeded data after a wait on the clock dependency that stands in for the
  /// network (no network is used). An unknown city is a `FetchFailure`.
  public static var live: WeatherClient {
    WeatherClient(
      fetchInitialData: {
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(400))
        return InitialData(cities: cities, forecast: try forecast(for: cities[0].id))
      },
      fetchForecast: { cityID in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(200))
        return try forecast(for: cityID)
      }
    )
  }

  /// The test client: the same data, at once.
  public static var immediate: WeatherClient {
    WeatherClient(
      fetchInitialData: {
        InitialData(cities: cities, forecast: try forecast(for: cities[0].id))
      },
      fetchForecast: { cityID in try forecast(for: cityID) }
    )
  }

  /// The seeded forecast of a city.
  ///
  /// ```swift
  /// try WeatherClient.forecast(for: 1).temperatureCelsius  // 18
  /// ```
  public static func forecast(for cityID: City.ID) throws -> Forecast {
    guard cities.contains(where: { $0.id == cityID }) else {
      throw FetchFailure(message: "no forecast for city \(cityID)")
    }
    let base = 12 + 6 * cityID
    let conditions = WeatherCondition.allCases
    return Forecast(
      cityID: cityID,
      temperatureCelsius: base,
      condition: conditions[cityID % conditions.count],
      hourlyCelsius: (0..<6).map { hour in base + (hour % 3) - 1 }
    )
  }
}

enum WeatherClientKey: DependencyKey {
  static var liveValue: WeatherClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: WeatherClient { .live }
}

extension DependencyValues {
  /// The weather app's client. Live: `WeatherClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var weatherClient: WeatherClient {
    get { self[WeatherClientKey.self] }
    set { self[WeatherClientKey.self] = newValue }
  }
}

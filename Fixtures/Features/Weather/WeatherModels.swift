/// A city the weather app knows.
public struct City: Identifiable, Equatable, Sendable, Codable {
  public var id: Int
  public var name: String

  public init(id: Int, name: String) {
    self.id = id
    self.name = name
  }
}

/// The sky, as the forecast describes it.
public enum WeatherCondition: String, Equatable, Sendable, Codable, CaseIterable {
  case clear
  case cloudy
  case rain
  case snow
}

/// The weather of a city now and for the next hours.
public struct Forecast: Equatable, Sendable, Codable {
  public var cityID: City.ID
  public var temperatureCelsius: Int
  public var condition: WeatherCondition
  /// The temperatures of the next hours, in degrees Celsius.
  public var hourlyCelsius: [Int]

  public init(
    cityID: City.ID,
    temperatureCelsius: Int,
    condition: WeatherCondition,
    hourlyCelsius: [Int]
  ) {
    self.cityID = cityID
    self.temperatureCelsius = temperatureCelsius
    self.condition = condition
    self.hourlyCelsius = hourlyCelsius
  }
}

/// What the splash screen loads before the app can show its main screen.
public struct InitialData: Equatable, Sendable, Codable {
  public var cities: [City]
  /// The forecast of the first city.
  public var forecast: Forecast

  public init(cities: [City], forecast: Forecast) {
    self.cities = cities
    self.forecast = forecast
  }
}

/// How temperatures are shown.
public enum TemperatureUnit: String, Equatable, Sendable, Codable {
  case celsius
  case fahrenheit
}

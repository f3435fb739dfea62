import ComposableCore
import ComposableTesting
import FixtureSupport
import Foundation
import WeatherFeature
import XCTest

@MainActor
final class WeatherTests: XCTestCase {
  func testSplashLoadIsLoggedByRootAndMovesToMain() async throws {
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    let store = TestStore(initialState: Root.State()) {
      Root()
    } withDependencies: {
      $0.weatherClient = .immediate
      $0.date = .constant(testNow)
    }
    await store.send(.splash(.startLoadData)) {
      // Splash's own logic and Root's Reduce both ran for the one action.
      $0.splash.isLoading = true
      $0.analyticsEvents = ["splash.loadStarted"]
    }
    await store.receive(.splash(.dataLoaded(.success(data)))) {
      $0.splash.isLoading = false
      $0.analyticsEvents = ["splash.loadStarted", "splash.loaded"]
      $0.main = Main.State(
        cities: WeatherClient.cities,
        selectedCityID: 1,
        forecast: data.forecast,
        updatedAt: testNow
      )
      $0.route = .main
    }
  }

  func testSplashFailureStaysOnSplash() async {
    let store = TestStore(initialState: Root.State()) {
      Root()
    } withDependencies: {
      $0.weatherClient = .immediate
      $0.weatherClient.fetchInitialData = { throw FetchFailure(message: "offline") }
    }
    await store.send(.splash(.startLoadData)) {
      $0.splash.isLoading = true
      $0.analyticsEvents = ["splash.loadStarted"]
    }
    await store.receive(.splash(.dataLoaded(.failure(FetchFailure(message: "offline"))))) {
      $0.splash.isLoading = false
      $0.splash.errorMessage = "offline"
      $0.analyticsEvents = ["splash.loadStarted", "splash.failed"]
    }
  }

  func testLiveClientLoadsInitialDataAfterItsDelay() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Root.State()) {
      Root()
    } withDependencies: {
      $0.weatherClient = .immediate
      $0.weatherClient = .live
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.splash(.startLoadData)) {
      $0.splash.isLoading = true
      $0.analyticsEvents = ["splash.loadStarted"]
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(399))
    XCTAssertEqual(clock.sleeperCount, 1)
    await clock.advance(by: .milliseconds(1))
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    await store.receive(.splash(.dataLoaded(.success(data)))) {
      $0.splash.isLoading = false
      $0.analyticsEvents = ["splash.loadStarted", "splash.loaded"]
      $0.main = Main.State(data: data, updatedAt: testNow)
      $0.route = .main
    }
  }

  func testSelectingACityLoadsItsForecast() async throws {
    let clock = TestClock()
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    let store = TestStore(initialState: Main.State(data: data, updatedAt: nil)) {
      Main()
    } withDependencies: {
      $0.weatherClient = .immediate
      $0.weatherClient = .live
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.citySelected(2)) {
      $0.selectedCityID = 2
      $0.isRefreshing = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    let busan = try WeatherClient.forecast(for: 2)
    await store.receive(.forecastLoaded(.success(busan))) {
      $0.isRefreshing = false
      $0.forecast = busan
      $0.updatedAt = testNow
    }
    XCTAssertEqual(store.state.forecast?.temperatureCelsius, 24)
  }

  func testSelectingAnotherCityCancelsTheForecastInFlight() async throws {
    let clock = TestClock()
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    let store = TestStore(initialState: Main.State(data: data, updatedAt: nil)) {
      Main()
    } withDependencies: {
      $0.weatherClient = .immediate
      $0.weatherClient = .live
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.citySelected(2)) {
      $0.selectedCityID = 2
      $0.isRefreshing = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(150))
    await store.send(.citySelected(3)) { $0.selectedCityID = 3 }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    let jeju = try WeatherClient.forecast(for: 3)
    await store.receive(.forecastLoaded(.success(jeju))) {
      $0.isRefreshing = false
      $0.forecast = jeju
      $0.updatedAt = testNow
    }
  }

  func testSelectingTheShownCityDoesNothing() async throws {
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    let store = TestStore(initialState: Main.State(data: data, updatedAt: nil)) { Main() }
    await store.send(.citySelected(1))
  }

  func testForecastFailureIsShown() async throws {
    let store = TestStore(initialState: Main.State(cities: WeatherClient.cities)) {
      Main()
    } withDependencies: {
      $0.weatherClient = .immediate
    }
    await store.send(.citySelected(9)) {
      $0.selectedCityID = 9
      $0.isRefreshing = true
    }
    let failure = FetchFailure(message: "no forecast for city 9")
    await store.receive(.forecastLoaded(.failure(failure))) {
      $0.isRefreshing = false
      $0.errorMessage = "no forecast for city 9"
    }
  }

  func testUnitToggleChangesTheShownTemperature() async throws {
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 1))
    let store = TestStore(initialState: Main.State(data: data, updatedAt: nil)) { Main() }
    XCTAssertEqual(store.state.temperatureText, "18°C")
    await store.send(.unitToggled) { $0.unit = .fahrenheit }
    XCTAssertEqual(store.state.temperatureText, "64°F")
    await store.send(.unitToggled) { $0.unit = .celsius }
  }

  func testStateAndActionsSurviveCoding() throws {
    let data = InitialData(
      cities: WeatherClient.cities, forecast: try WeatherClient.forecast(for: 2))
    let state = Root.State(
      route: .main, splash: Splash.State(errorMessage: "x"),
      main: Main.State(data: data, updatedAt: testNow), analyticsEvents: ["a"])
    XCTAssertEqual(try roundTrip(state), state)
    let actions: [Root.Action] = [
      .splash(.startLoadData), .splash(.dataLoaded(.success(data))),
      .splash(.dataLoaded(.failure(FetchFailure(message: "x")))),
      .main(.citySelected(2)), .main(.refreshTapped), .main(.unitToggled),
      .main(.forecastLoaded(.success(data.forecast))),
    ]
    XCTAssertEqual(try roundTrip(actions), actions)
    XCTAssertEqual(
      try json(Root.Action.splash(.startLoadData)), #"{"splash":{"_0":{"startLoadData":{}}}}"#)
  }
}

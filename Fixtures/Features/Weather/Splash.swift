import ComposableCore
import FixtureSupport

/// The splash screen (seed 003): loads the app's initial data; `Root` moves to `Main` when it
/// arrives.
///
/// ```swift
/// store.send(.splash(.startLoadData))
/// // later: .splash(.dataLoaded(.success(InitialData(…))))
/// ```
public struct Splash: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var isLoading: Bool
    public var errorMessage: String?

    public init(isLoading: Bool = false, errorMessage: String? = nil) {
      self.isLoading = isLoading
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case startLoadData
    case dataLoaded(FetchResult<InitialData>)
  }

  enum CancelID: Hashable, Sendable {
    case load
  }

  @Dependency(\.weatherClient) var weatherClient

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startLoadData:
      state.isLoading = true
      state.errorMessage = nil
      let weatherClient = self.weatherClient
      return .run { send in
        let result = try await FetchResult { try await weatherClient.fetchInitialData() }
        await send(.dataLoaded(result))
      }
      .cancellable(id: CancelID.load, cancelInFlight: true)

    case .dataLoaded(.success):
      state.isLoading = false
      return .none

    case let .dataLoaded(.failure(failure)):
      state.isLoading = false
      state.errorMessage = failure.message
      return .none
    }
  }
}

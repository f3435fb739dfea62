import ComposableCore
import Foundation

/// The counter of the seed's sample app (seed 004): plus, minus, reset, and a message loaded
/// by a cancellable effect that sleeps on the clock and then succeeds or fails.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.plus)               // count 1
/// store.send(.loadMessageTapped)  // isLoading; after the delay: .messageResponse("1 is …")
/// store.send(.cancelLoadTapped)   // the load in flight is cancelled
/// ```
public struct Counter: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var count: Int
    public var isLoading: Bool
    public var message: String
    /// When the last message arrived (read from the `date` dependency).
    public var lastLoadedAt: Date?

    public init(
      count: Int = 0,
      isLoading: Bool = false,
      message: String = "",
      lastLoadedAt: Date? = nil
    ) {
      self.count = count
      self.isLoading = isLoading
      self.message = message
      self.lastLoadedAt = lastLoadedAt
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case plus
    case minus
    case reset
    case loadMessageTapped
    case cancelLoadTapped
    case messageResponse(String)
    case messageFailed(String)
  }

  /// The one cancellation id of the feature: the message load.
  enum CancelID: Hashable, Sendable {
    case load
  }

  /// How long a load waits before asking the client (a user can cancel in this window).
  public static let loadDelay: Duration = .milliseconds(300)

  @Dependency(\.continuousClock) var clock
  @Dependency(\.messageClient) var messageClient
  @Dependency(\.date) var date

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .plus:
      state.count += 1
      return .none

    case .minus:
      state.count -= 1
      return .none

    case .reset:
      state.count = 0
      state.message = ""
      return .none

    case .loadMessageTapped:
      state.isLoading = true
      let count = state.count
      let clock = self.clock
      let messageClient = self.messageClient
      return .run { send in
        try await clock.sleep(for: Counter.loadDelay)
        do {
          await send(.messageResponse(try await messageClient.fetch(count)))
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          await send(.messageFailed(String(describing: error)))
        }
      }
      .cancellable(id: CancelID.load, cancelInFlight: true)

    case .cancelLoadTapped:
      guard state.isLoading else { return .none }
      state.isLoading = false
      state.message = "Load cancelled"
      return .cancel(id: CancelID.load)

    case let .messageResponse(message):
      state.isLoading = false
      state.message = message
      state.lastLoadedAt = date.now
      return .none

    case let .messageFailed(reason):
      state.isLoading = false
      state.message = "Failed: \(reason)"
      return .none
    }
  }
}

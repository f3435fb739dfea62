import ComposableCore
import FixtureSupport

/// A search field that looks each query up as the user types.
///
/// ```swift
/// let store = Store(initialState: Search.State()) { Search() }
/// store.send(.queryChanged("sw"))   // isSearching; after the lookup: results for "sw"
/// store.send(.queryChanged("swi"))  // the lookup for "sw" in flight is cancelled
/// ```
///
/// `Search(bug: .forgetsCancelInFlight)` switches in a known bug for chaos replay: a new
/// query does not cancel the lookup in flight, so when an older lookup answers after a newer
/// one, its stale results win. A recording where the lookups answered in order looks right;
/// `Replay.chaos(seed:runs:)` finds the order that shows the bug.
public struct Search: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var query: String
    /// The query the shown results are for.
    public var resultsQuery: String
    public var results: [String]
    public var isSearching: Bool
    public var errorMessage: String?

    public init(
      query: String = "", resultsQuery: String = "", results: [String] = [],
      isSearching: Bool = false, errorMessage: String? = nil
    ) {
      self.query = query
      self.resultsQuery = resultsQuery
      self.results = results
      self.isSearching = isSearching
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case queryChanged(String)
    case searchResponse(query: String, FetchResult<[String]>)
  }

  /// Known bugs that can be switched in.
  public enum Bug: String, Equatable, Sendable, CaseIterable {
    /// A new query does not cancel the lookup in flight (`cancelInFlight: false`).
    case forgetsCancelInFlight
  }

  enum CancelID: Hashable, Sendable {
    case search
  }

  let bug: Bug?

  @Dependency(\.searchClient) var searchClient

  /// The search; `bug` switches in a known bug (see `Bug`).
  public init(bug: Bug? = nil) {
    self.bug = bug
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query):
      state.query = query
      guard !query.isEmpty else {
        state.results = []
        state.resultsQuery = ""
        state.isSearching = false
        return .cancel(id: CancelID.search)
      }
      state.isSearching = true
      let searchClient = self.searchClient
      return .run { send in
        let result = try await FetchResult { try await searchClient.search(query) }
        await send(.searchResponse(query: query, result))
      }
      .cancellable(id: CancelID.search, cancelInFlight: bug != .forgetsCancelInFlight)

    case let .searchResponse(query, .success(results)):
      state.isSearching = false
      state.resultsQuery = query
      state.results = results
      state.errorMessage = nil
      return .none

    case let .searchResponse(_, .failure(failure)):
      state.isSearching = false
      state.errorMessage = failure.message
      return .none
    }
  }
}

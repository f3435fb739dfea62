import ComposableCore

/// Looks words up.
///
/// ```swift
/// @Dependency(\.searchClient) var searchClient
/// try await searchClient.search("sw")  // ["swallow", "swift", "swim"]
/// ```
public struct SearchClient: Sendable {
  /// The words that start with the query.
  public var search: @Sendable (_ query: String) async throws -> [String]

  public init(search: @escaping @Sendable (_ query: String) async throws -> [String]) {
    self.search = search
  }
}

extension SearchClient {
  /// The words every client knows.
  public static let words = [
    "sparrow", "spring", "stone", "storm", "swallow", "swift", "swim", "table", "tide", "tiger",
  ]

  /// The words that start with `query`, in order.
  public static func matches(_ query: String) -> [String] {
    words.filter { $0.hasPrefix(query) }
  }

  /// The live client: the matches after a wait on the clock dependency that stands in for the
  /// network (no network is used), the same for every query.
  public static var live: SearchClient {
    SearchClient { query in
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(300))
      return matches(query)
    }
  }

  /// The test client: the matches, at once.
  public static var immediate: SearchClient {
    SearchClient { query in matches(query) }
  }
}

enum SearchClientKey: DependencyKey {
  static var liveValue: SearchClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: SearchClient { .live }
}

extension DependencyValues {
  /// The search's client. Live: `SearchClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var searchClient: SearchClient {
    get { self[SearchClientKey.self] }
    set { self[SearchClientKey.self] = newValue }
  }
}

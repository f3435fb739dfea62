import ComposableCore
import Foundation

/// The feature the recorder tests record: a scoped stopwatch with a cancellable timer, a
/// search with `cancelInFlight`, an optional detail (ifLet) and rows (forEach) with long
/// effects, a merge, and reads of `uuid`, `date` and random numbers.
struct RecordedFeature: Reducer {
  struct State: Codable, Equatable, Sendable {
    var stopwatch = Stopwatch.State()
    var query = ""
    var results: [String] = []
    var detail: Detail.State?
    var rows: IdentifiedArrayOf<Row.State> = []
    var refreshID: UUID?
    var refreshedAt: Date?
    var lucky = 0
    var refreshes = 0
    var password = "hunter2"
  }

  enum Action: Codable, Equatable, Sendable {
    case stopwatch(Stopwatch.Action)
    case search(String)
    case searchResponse([String])
    case openDetail
    case closeDetail
    case detail(Detail.Action)
    case addRow(Int)
    case removeRow(Int)
    case rows(IdentifiedAction<Int, Row.Action>)
    case refresh
    case refreshStarted
    case refreshed(UUID)
  }

  enum CancelID: Hashable, Sendable { case search }

  /// How many search results the feature keeps; the replay tests "fix" the reducer by
  /// changing it.
  var maxResults = Int.max

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var random

  var body: some ReducerOf<Self> {
    Scope(state: \.stopwatch, action: .stopwatch) { Stopwatch() }
    Reduce { state, action in
      switch action {
      case .stopwatch, .detail, .rows:
        return .none
      case .search(let query):
        state.query = query
        return .run { send in  // effect: search
          try await clock.sleep(for: .seconds(1))
          await send(.searchResponse([query + "1", query + "2"]))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResponse(let results):
        state.results = Array(results.prefix(maxResults))
        return .none
      case .openDetail:
        state.detail = Detail.State()
        return .none
      case .closeDetail:
        state.detail = nil
        return .none
      case .addRow(let id):
        state.rows.append(Row.State(id: id))
        return .none
      case .removeRow(let id):
        state.rows.remove(id: id)
        return .none
      case .refresh:
        let id = uuid()
        state.refreshID = id
        state.refreshedAt = date.now
        state.lucky = random { Int.random(in: 1...100, using: &$0) }
        return .merge(
          .send(.refreshStarted),
          .run { send in await send(.refreshed(id)) }  // effect: refresh
        )
      case .refreshStarted:
        state.refreshes += 1
        return .none
      case .refreshed(let id):
        state.refreshID = id
        return .none
      }
    }
    .ifLet(\.detail, action: .detail) { Detail() }
    .forEach(\.rows, action: .rows) { Row() }
  }
}

/// A scoped child whose timer is cancelled with `.cancel(id:)`.
struct Stopwatch: Reducer {
  struct State: Codable, Equatable, Sendable {
    var isRunning = false
    var seconds = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case start
    case stop
    case tick
  }

  enum CancelID: Hashable, Sendable { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      return .run { send in  // effect: timer
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stop:
      state.isRunning = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.seconds += 1
      return .none
    }
  }
}

/// An optional child with a long effect, torn down by `ifLet`.
struct Detail: Reducer {
  struct State: Codable, Equatable, Sendable {
    var isWatching = false
  }

  enum Action: Codable, Equatable, Sendable {
    case watch
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isWatching = true
    return .run { _ in try await clock.sleep(for: .seconds(3600)) }  // effect: detail
  }
}

/// A row with a long effect, torn down by `forEach`.
struct Row: Reducer {
  struct State: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var isWatching = false
  }

  enum Action: Codable, Equatable, Sendable {
    case watch
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isWatching = true
    return .run { _ in try await clock.sleep(for: .seconds(3600)) }  // effect: row
  }
}

extension AnyCasePath where Root == RecordedFeature.Action, Value == Stopwatch.Action {
  static var stopwatch: Self {
    .init(Root.stopwatch) { if case .stopwatch(let action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == RecordedFeature.Action, Value == Detail.Action {
  static var detail: Self {
    .init(Root.detail) { if case .detail(let action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == RecordedFeature.Action, Value == IdentifiedAction<Int, Row.Action> {
  static var rows: Self {
    .init(Root.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

import ComposableCore
import Foundation

/// The counter of the brief: the public API used with no macros.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var name = ""
    var loaded: String?
  }

  enum Action: Equatable, Sendable {
    case plus
    case rename(String)
    case load
    case loaded(String)
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .plus:
        state.count += 1
        return .none
      case let .rename(name):
        state.name = name
        return .none
      case .load:
        return .run { send in await send(.loaded("ok")) }
      case let .loaded(text):
        state.loaded = text
        return .none
      }
    }
  }
}

/// A parent with a scoped child, an optional child and a list of rows.
struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var detail: Counter.State?
    var rows: IdentifiedArrayOf<Row.State> = []
  }

  enum Action: Equatable, Sendable {
    case counter(Counter.Action)
    case detail(Counter.Action)
    case rows(IdentifiedAction<Int, Row.Action>)
    case showDetail
    case hideDetail
    case addRow(Int)
    case removeRow(Int)
    case plusCounterOnly
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .counter) { Counter() }
    Reduce { state, action in
      switch action {
      case .showDetail:
        state.detail = Counter.State()
        return .none
      case .hideDetail:
        state.detail = nil
        return .none
      case let .addRow(id):
        state.rows.append(Row.State(id: id))
        return .none
      case let .removeRow(id):
        state.rows.remove(id: id)
        return .none
      case .plusCounterOnly:
        state.counter.count += 1
        return .none
      case .counter, .detail, .rows:
        return .none
      }
    }
    .ifLet(\.detail, action: .detail) { Counter() }
    .forEach(\.rows, action: .rows) { Row() }
  }
}

extension AnyCasePath where Root == Parent.Action, Value == Counter.Action {
  static var counter: Self {
    .init(Root.counter) { if case let .counter(action) = $0 { action } else { nil } }
  }
  static var detail: Self {
    .init(Root.detail) { if case let .detail(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Parent.Action, Value == IdentifiedAction<Int, Row.Action> {
  static var rows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

/// A row that starts a long-living effect under a shared id.
struct Row: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case start
    case stop
    case tick
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while !Task.isCancelled {
          await send(.tick)
          try await Task.sleep(for: .milliseconds(5))
        }
      }
      .cancellable(id: "timer")
    case .stop:
      return .cancel(id: "timer")
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

import ComposableCore
import CounterFeature
import SearchFeature
import TodosFeature

/// An app composed of the other fixtures, for measuring what depth costs: a counter and a
/// todo list in `Scope`s (the list runs its rows with `forEach`), a search presented as a
/// sheet (`ifLet` on `@PresentationState`), and the number of open todos kept by `onChange`.
///
/// ```swift
/// let store = Store(initialState: Showcase.State(todoCount: 8)) { Showcase() }
/// store.send(.counter(.plus))
/// store.send(.searchTapped)                          // the sheet is presented
/// store.send(.search(.presented(.queryChanged("s"))))
/// store.send(.todos(.todos(.element(id: id, action: .toggleCompleted))))  // openTodos - 1
/// ```
public struct Showcase: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var counter: Counter.State
    public var todos: Todos.State
    @PresentationState public var search: Search.State?
    /// The todos not completed, kept up to date by `onChange`.
    public var openTodos: Int

    /// An app with `todoCount` sample todos (see `Todos.State(sampleCount:)`).
    public init(todoCount: Int = 8) {
      counter = Counter.State()
      todos = Todos.State(sampleCount: todoCount)
      search = nil
      openTodos = todos.todos.count { !$0.isComplete }
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case counter(Counter.Action)
    case todos(Todos.Action)
    case search(PresentationAction<Search.Action>)
    case searchTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .showcaseCounter) { Counter() }
    Scope(state: \.todos, action: .showcaseTodos) { Todos() }
    Reduce { state, action in
      switch action {
      case .searchTapped:
        state.search = Search.State()
        return .none
      case .counter, .todos, .search:
        return .none
      }
    }
    .ifLet(\.$search, action: .showcaseSearch) { Search() }
    .onChange(of: { $0.todos.todos.count { !$0.isComplete } }) { _, open in
      Reduce { state, _ in
        state.openTodos = open
        return .none
      }
    }
  }
}

extension AnyCasePath where Root == Showcase.Action, Value == Counter.Action {
  /// The case path to `Showcase.Action.counter`.
  public static var showcaseCounter: Self {
    AnyCasePath(Showcase.Action.counter) {
      if case let .counter(action) = $0 { action } else { nil }
    }
  }
}

extension AnyCasePath where Root == Showcase.Action, Value == Todos.Action {
  /// The case path to `Showcase.Action.todos`.
  public static var showcaseTodos: Self {
    AnyCasePath(Showcase.Action.todos) {
      if case let .todos(action) = $0 { action } else { nil }
    }
  }
}

extension AnyCasePath where Root == Showcase.Action, Value == PresentationAction<Search.Action> {
  /// The case path to `Showcase.Action.search`.
  public static var showcaseSearch: Self {
    AnyCasePath(Showcase.Action.search) {
      if case let .search(action) = $0 { action } else { nil }
    }
  }
}

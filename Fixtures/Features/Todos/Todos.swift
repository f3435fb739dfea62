import ComposableCore
import FixtureSupport
import Foundation

/// A todo list: an `IdentifiedArray` of rows run by `forEach`, add, remove, toggle (in the
/// row), move, a filter, and a debounced save.
///
/// ```swift
/// let store = Store(initialState: Todos.State(sampleCount: 10_000)) { Todos() }
/// store.send(.addTodoTapped(title: "Milk"))  // id from the uuid dependency; save in 1 s
/// store.send(.filterChanged(.active))
/// ```
///
/// `Todos(bug: .moveIgnoresFilter)` switches in a known bug for the replay demonstration:
/// moves in a filtered list are applied to the unfiltered positions.
public struct Todos: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var todos: IdentifiedArrayOf<Todo.State>
    public var filter: Filter
    /// Whether a change has not been saved yet.
    public var hasUnsavedChanges: Bool
    public var saveCount: Int
    /// When the last save finished (read from the `date` dependency).
    public var lastSavedAt: Date?
    public var errorMessage: String?

    public init(
      todos: IdentifiedArrayOf<Todo.State> = [],
      filter: Filter = .all,
      hasUnsavedChanges: Bool = false,
      saveCount: Int = 0,
      lastSavedAt: Date? = nil,
      errorMessage: String? = nil
    ) {
      self.todos = todos
      self.filter = filter
      self.hasUnsavedChanges = hasUnsavedChanges
      self.saveCount = saveCount
      self.lastSavedAt = lastSavedAt
      self.errorMessage = errorMessage
    }

    /// A list of `sampleCount` todos with deterministic ids and titles, every third one
    /// completed (benchmarks use 10,000).
    ///
    /// ```swift
    /// Todos.State(sampleCount: 3).todos.map(\.title)  // ["Todo 1", "Todo 2", "Todo 3"]
    /// ```
    public init(sampleCount: Int) {
      var todos = IdentifiedArrayOf<Todo.State>()
      for index in 0..<max(0, sampleCount) {
        todos.append(
          Todo.State(
            id: UUID(fixture: UInt64(index + 1), namespace: 0x7D),
            title: "Todo \(index + 1)",
            isComplete: index % 3 == 2
          )
        )
      }
      self.init(todos: todos)
    }

    /// The todos the filter lets through, in list order.
    public var filteredTodos: [Todo.State] {
      switch filter {
      case .all: todos.elements
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  /// Which todos the list shows.
  public enum Filter: String, Equatable, Sendable, Codable, CaseIterable {
    case all
    case active
    case completed
  }

  public enum Action: Equatable, Sendable, Codable {
    case addTodoTapped(title: String)
    case removeTodo(Todo.State.ID)
    /// Moves rows of the list as shown (offsets in `filteredTodos`).
    case move(fromOffsets: [Int], toOffset: Int)
    case filterChanged(Filter)
    case clearCompletedTapped
    case todos(IdentifiedAction<Todo.State.ID, Todo.Action>)
    case saved(FetchResult<Int>)
  }

  /// Known bugs that can be switched in, to record a trace that replays differently against
  /// the fixed reducer.
  public enum Bug: String, Equatable, Sendable, CaseIterable {
    /// `move` applies the offsets of the filtered list to the whole list.
    case moveIgnoresFilter
  }

  enum CancelID: Hashable, Sendable {
    case save
  }

  /// How long the list waits after the last change before saving.
  public static let saveDebounce: Duration = .seconds(1)

  let bug: Bug?

  @Dependency(\.todosClient) var todosClient
  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  /// The todo list; `bug` switches in a known bug (see `Bug`).
  public init(bug: Bug? = nil) {
    self.bug = bug
  }

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .addTodoTapped(title):
        let title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return .none }
        state.todos.insert(Todo.State(id: uuid(), title: title), at: 0)
        return scheduleSave(&state)

      case let .removeTodo(id):
        guard state.todos.remove(id: id) != nil else { return .none }
        return scheduleSave(&state)

      case let .move(source, destination):
        guard move(&state, source: source, destination: destination) else { return .none }
        return scheduleSave(&state)

      case let .filterChanged(filter):
        state.filter = filter
        return .none

      case .clearCompletedTapped:
        let count = state.todos.count
        state.todos.removeAll(where: \.isComplete)
        guard state.todos.count != count else { return .none }
        return scheduleSave(&state)

      case .todos:
        // Every row action changes the row: save it.
        return scheduleSave(&state)

      case .saved(.success):
        state.hasUnsavedChanges = false
        state.saveCount += 1
        state.lastSavedAt = date.now
        state.errorMessage = nil
        return .none

      case let .saved(.failure(failure)):
        state.errorMessage = failure.message
        return .none
      }
    }
    .forEach(\.todos, action: .todos) { Todo() }
  }

  /// Saves the list once no change came for `saveDebounce`: every change cancels the pending
  /// save and starts a new one.
  func scheduleSave(_ state: inout State) -> Effect<Action> {
    state.hasUnsavedChanges = true
    let todos = state.todos.elements
    let todosClient = self.todosClient
    return .run { send in
      await send(.saved(try await FetchResult { try await todosClient.save(todos) }))
    }
    .debounce(id: CancelID.save, for: Todos.saveDebounce, clock: clock)
  }

  /// Moves the rows at `source` (offsets in the shown list) before the shown row at
  /// `destination`; returns whether the offsets were valid.
  func move(_ state: inout State, source: [Int], destination: Int) -> Bool {
    let shown = state.filteredTodos
    guard !source.isEmpty, source.allSatisfy(shown.indices.contains),
      (0...shown.count).contains(destination)
    else { return false }
    if bug == .moveIgnoresFilter {
      state.todos.move(fromOffsets: source, toOffset: destination)
      return true
    }
    // The shown offsets name todos; find where those todos are in the whole list.
    let wholeSource = source.compactMap { state.todos.index(id: shown[$0].id) }
    let wholeDestination =
      destination < shown.count
      ? state.todos.index(id: shown[destination].id) ?? state.todos.count
      : (shown.last.flatMap { state.todos.index(id: $0.id) }.map { $0 + 1 } ?? state.todos.count)
    state.todos.move(fromOffsets: wholeSource, toOffset: wholeDestination)
    return true
  }
}

extension AnyCasePath
where Root == Todos.Action, Value == IdentifiedAction<Todo.State.ID, Todo.Action> {
  /// The case path to `Todos.Action.todos`.
  public static var todos: Self {
    AnyCasePath(Todos.Action.todos) {
      if case let .todos(action) = $0 { action } else { nil }
    }
  }
}

import ComposableCore
import Synchronization

/// Persists the todo list.
///
/// ```swift
/// @Dependency(\.todosClient) var todosClient
/// try await todosClient.save(todos)  // the number of todos stored
/// ```
public struct TodosClient: Sendable {
  /// Stores the whole list and returns how many todos were stored.
  public var save: @Sendable (_ todos: [Todo.State]) async throws -> Int

  public init(save: @escaping @Sendable (_ todos: [Todo.State]) async throws -> Int) {
    self.save = save
  }
}

extension TodosClient {
  /// The live client: keeps the last saved list in memory after a short wait on the clock
  /// dependency (standing in for the disk).
  public static var live: TodosClient {
    let stored = Mutex<[Todo.State]>([])
    return TodosClient { todos in
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(50))
      stored.withLock { $0 = todos }
      return todos.count
    }
  }

  /// The test client: every save succeeds at once.
  public static var immediate: TodosClient {
    TodosClient { todos in todos.count }
  }
}

enum TodosClientKey: DependencyKey {
  static var liveValue: TodosClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: TodosClient { .live }
}

extension DependencyValues {
  /// Where the todo list is saved. Live: `TodosClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var todosClient: TodosClient {
    get { self[TodosClientKey.self] }
    set { self[TodosClientKey.self] = newValue }
  }
}

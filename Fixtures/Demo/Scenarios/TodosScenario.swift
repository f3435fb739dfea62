import Foundation
import TodosFeature

/// A user who keeps a todo list: adds, ticks, renames, removes, filters and reorders todos,
/// while the list saves itself after each pause. With `bug`, the session runs the reducer with
/// that bug switched in and first reorders a filtered list — the step where the fixed reducer
/// disagrees.
struct TodosScenario: Scenario {
  /// The number of todos the session starts with.
  static let initialCount = 12
  static let titles = ["Milk", "Call mom", "Book flights", "Water plants", "Pay rent", "Run"]

  var bug: Todos.Bug?

  var name: String { bug == nil ? "todos" : "todos-buggy" }

  var summary: String {
    bug == nil
      ? "Todos: forEach rows, a filter, moves and a debounced save"
      : "Todos with the move bug: replaying against the fixed reducer diverges at step 2"
  }

  var longestPause: Duration { .milliseconds(1_500) }

  func makeReducer() -> Todos { Todos(bug: bug) }

  func makeReplayReducer() -> Todos { Todos() }

  func initialState() -> Todos.State { Todos.State(sampleCount: Self.initialCount) }

  func openingActions() -> [Todos.Action] {
    guard bug != nil else { return [] }
    // Shown after the filter: Todo 1, 2, 4, 5, … Dragging "Todo 4" to the top is where the
    // buggy reducer moves "Todo 3" instead.
    return [.filterChanged(.active), .move(fromOffsets: [2], toOffset: 0)]
  }

  func nextAction(in state: Todos.State, random: inout DemoRandom) -> Todos.Action? {
    let shown = state.filteredTodos
    let todo = random.pick(shown)
    let title = random.pick(Self.titles) ?? "Milk"
    let filter = random.pick(Todos.Filter.allCases) ?? .all
    let move: Todos.Action? =
      shown.count < 2
      ? nil
      : .move(
        fromOffsets: [random.int(in: 0...(shown.count - 1))],
        toOffset: random.int(in: 0...shown.count))
    return random.weighted([
      (15, .addTodoTapped(title: title)),
      (todo == nil ? 0 : 25, todo.map { .todos(.element(id: $0.id, action: .toggleCompleted)) }),
      (todo == nil ? 0 : 8, todo.map { .todos(.element(id: $0.id, action: .titleChanged(title))) }),
      (todo == nil ? 0 : 8, todo.map { .removeTodo($0.id) }),
      (move == nil ? 0 : 20, move),
      (12, .filterChanged(filter)),
      (3, .clearCompletedTapped),
    ]) ?? nil
  }
}

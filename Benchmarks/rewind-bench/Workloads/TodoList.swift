import ComposableCore
import Foundation

/// The large-state workload: a list of `count` identified todos (10,000 in the cases), where
/// every action changes exactly one element. It measures whether recording costs what the
/// change costs or what the state costs.
///
/// ```swift
/// let store = Store(initialState: TodoList.State(count: 3)) { TodoList() }
/// store.send(TodoList.action(at: 1, count: 3))  // toggles one todo
/// ```
struct TodoList: Reducer {
  /// The list size of the `*.todos10k` cases.
  static let benchmarkSize = 10_000

  struct Todo: Equatable, Identifiable, Sendable, Codable {
    var id: UUID
    var title: String
    var isComplete: Bool
  }

  struct State: Equatable, Sendable, Codable {
    var todos: IdentifiedArrayOf<Todo>
    var editCount = 0

    /// `count` todos with deterministic ids and titles.
    init(count: Int) {
      todos = IdentifiedArrayOf(
        uniqueElements: (0..<count).map { index in
          Todo(id: TodoList.id(index), title: "Todo \(index)", isComplete: index % 3 == 0)
        })
    }
  }

  enum Action: Equatable, Sendable, Codable {
    case toggleCompleted(id: UUID)
    case titleChanged(id: UUID, title: String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggleCompleted(let id):
      state.todos[id: id]?.isComplete.toggle()
    case .titleChanged(let id, let title):
      state.todos[id: id]?.title = title
    }
    state.editCount += 1
    return .none
  }

  /// The action of step `step` in a list of `count` todos: it touches one todo, spread over
  /// the list (a prime stride), toggling three times out of four and renaming otherwise.
  static func action(at step: Int, count: Int) -> Action {
    let id = id((step &* 7_919) % count)
    return step % 4 == 0
      ? .titleChanged(id: id, title: "Renamed \(step)") : .toggleCompleted(id: id)
  }

  /// A fixed id per index (no `UUID()`: it reads /dev/urandom on every call).
  static func id(_ index: Int) -> UUID {
    let value = UInt64(index)
    return UUID(
      uuid: (
        0x7D, 0x0D, 0x05, 0x00, 0, 0, 0x40, 0, 0x80, 0,
        UInt8(truncatingIfNeeded: value >> 40), UInt8(truncatingIfNeeded: value >> 32),
        UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
        UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)
      ))
  }
}

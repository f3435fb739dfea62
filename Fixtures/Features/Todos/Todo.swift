import ComposableCore
import Foundation

/// One row of the todo list: run by `Todos` through `forEach`, one instance per todo.
///
/// ```swift
/// store.send(.todos(.element(id: id, action: .toggleCompleted)))
/// ```
public struct Todo: Reducer {
  public struct State: Identifiable, Equatable, Sendable, Codable {
    public var id: UUID
    public var title: String
    public var isComplete: Bool

    public init(id: UUID, title: String, isComplete: Bool = false) {
      self.id = id
      self.title = title
      self.isComplete = isComplete
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case toggleCompleted
    case titleChanged(String)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggleCompleted:
      state.isComplete.toggle()
      return .none
    case let .titleChanged(title):
      state.title = title
      return .none
    }
  }
}

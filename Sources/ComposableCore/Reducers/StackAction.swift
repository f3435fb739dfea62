/// The actions of a navigation stack: an element's own action, popping, pushing.
///
/// ```swift
/// enum Action { case path(StackActionOf<Path>) }
/// store.send(.path(.push(id: 0, state: .detail(Detail.State()))))
/// store.send(.path(.element(id: 0, action: .detail(.saveTapped))))
/// store.send(.path(.popFrom(id: 0)))
/// ```
public enum StackAction<State, Action: Sendable> {
  /// An action of the element with an id.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with an id and every element above it (the parent runs first and still
  /// sees them).
  case popFrom(id: StackElementID)
  /// Pushes an element with a new id (the parent runs after it is pushed).
  case push(id: StackElementID, state: State)
}

extension StackAction: Sendable where State: Sendable {}
extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
// Synthesized, so traces name the cases as for any other enum: `path.element.…`.
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}

extension StackAction: CasePathable {
  /// The case paths of `StackAction`: `\.path.element`, `\.path[id: 0]`, `\.path.popFrom`,
  /// `\.path.push`.
  public struct AllCasePaths {
    /// The case path to `.element`, as an `(id, action)` pair.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(embed: { .element(id: $0.id, action: $0.action) }) {
        guard case let .element(id, action) = $0 else { return nil }
        return (id, action)
      }
    }

    /// The case path to `.popFrom`.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(embed: { .popFrom(id: $0) }) {
        guard case let .popFrom(id) = $0 else { return nil }
        return id
      }
    }

    /// The case path to `.push`, as an `(id, state)` pair.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(embed: { .push(id: $0.id, state: $0.state) }) {
        guard case let .push(id, state) = $0 else { return nil }
        return (id, state)
      }
    }

    /// The case path to the actions of the element with one id.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        name: "[id: \(id)]",
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case let .element(elementID, action) = $0, elementID == id else { return nil }
          return action
        }
      )
    }
  }

  /// The case paths of every case.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// The stack actions of a reducer's elements: `StackAction<Path.State, Path.Action>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

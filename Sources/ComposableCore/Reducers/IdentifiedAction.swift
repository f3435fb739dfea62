/// An action for one element of an `IdentifiedArray`, routed by its id.
///
/// ```swift
/// enum Action { case rows(IdentifiedAction<Row.ID, Row.Action>) }
/// store.send(.rows(.element(id: 3, action: .toggle)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// The action `action` for the element with id `id`.
  case element(id: ID, action: Action)

  /// The case path to `.element`, as an `(id, action)` pair.
  public static var element: AnyCasePath<Self, (id: ID, action: Action)> {
    AnyCasePath(
      name: "IdentifiedAction.element",
      embed: { .element(id: $0.id, action: $0.action) },
      extract: {
        switch $0 {
        case let .element(id, action): (id, action)
        }
      }
    )
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}

// Synthesized here (it must be in the type's file) so that a recorded `forEach` action can
// be encoded into a trace and decoded back for typed replay.
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}

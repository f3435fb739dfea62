extension IdentifiedAction: CasePathable {
  /// The case paths of `IdentifiedAction`: `\.rows.element` for any element, `\.rows[id: 3]`
  /// for the actions of one element.
  ///
  /// ```swift
  /// .forEach(\.rows, action: \.rows) { Row() }
  /// await store.receive(\.rows[id: 3].finished)
  /// ```
  public struct AllCasePaths: Sendable {
    /// The case path to `.element`, as an `(id, action)` pair.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      AnyCasePath(embed: { .element(id: $0.id, action: $0.action) }) {
        guard case let .element(id, action) = $0 else { return nil }
        return (id, action)
      }
    }

    /// The case path to the actions of the element with one id.
    public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
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

/// The actions of the elements of a `forEach` of `R`: `IdentifiedAction<R.State.ID, R.Action>`.
///
/// ```swift
/// enum Action { case rows(IdentifiedActionOf<Row>) }
/// ```
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

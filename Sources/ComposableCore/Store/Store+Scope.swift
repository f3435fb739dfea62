extension Store {
  /// A store for a part of this store's state and actions; the same instance for the same key
  /// path and case path.
  ///
  /// ```swift
  /// let child = store.scope(state: \.child, action: .child)
  /// child === store.scope(state: \.child, action: .child)  // true
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: AnyCasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let id = ScopeID(state: toChildState, action: toChildAction.id, isOptional: false)
    if let cached = children[id] as? Store<ChildState, ChildAction> {
      return cached
    }
    let child = Store<ChildState, ChildAction>(
      core: ScopedCore(parent: core, toState: toChildState, fromAction: toChildAction.embed),
      observedPrefix: observedPrefix + [toChildState]
    )
    children[id] = child
    return child
  }

  /// A store for optional child state (an `ifLet` child), or `nil` while the state is `nil`.
  ///
  /// The same instance is returned while the child stays present; once it is `nil`, the
  /// cached store is dropped. Reading this is observed: a view learns when the child appears
  /// or disappears.
  ///
  /// As upstream, this form is chosen only where an optional store is expected: without a type
  /// annotation, `scope(state: \.detail, action: .detail)` is a store of optional state.
  ///
  /// ```swift
  /// if let detail = store.scope(state: \.detail, action: .detail) { … }
  /// let detail: Store<Detail.State, Detail.Action>? = store.scope(state: \.detail, …)
  /// let optional = store.scope(state: \.detail, action: .detail)  // Store<Detail.State?, …>
  /// ```
  @_disfavoredOverload
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: AnyCasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let id = ScopeID(state: toChildState, action: toChildAction.id, isOptional: true)
    let current = core.state[keyPath: toChildState]
    core.observation.access(
      key: ObservedKey(path: observedPrefix + [toChildState], marker: .presence),
      value: current != nil,
      read: { [weak core] in core.map { $0.state[keyPath: toChildState] != nil } }
    )
    guard let current else {
      children[id] = nil
      return nil
    }
    if let cached = children[id] as? Store<ChildState, ChildAction> {
      return cached
    }
    let child = Store<ChildState, ChildAction>(
      core: IfLetCore(
        parent: core,
        toState: toChildState,
        initialState: current,
        fromAction: toChildAction.embed
      ),
      observedPrefix: observedPrefix + [toChildState]
    )
    children[id] = child
    return child
  }
}

extension Store {
  /// The store of the element with an id, for a store of an identified array (the stores a
  /// list of rows uses). The same instance while the element exists.
  ///
  /// ```swift
  /// let rows = store.scope(state: \.rows, action: .rows)
  /// rows.scope(id: 3)?.send(.toggle)
  /// ```
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    id: ID
  ) -> Store<ElementState, ElementAction>?
  where
    State == IdentifiedArray<ID, ElementState>,
    Action == IdentifiedAction<ID, ElementAction>
  {
    let keyPath = \IdentifiedArray<ID, ElementState>.[id: id]
    let casePath = AnyCasePath<Action, ElementAction>(
      name: "IdentifiedAction.element(id: \(id))",
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case let .element(elementID, action) = $0, elementID == id else { return nil }
        return action
      }
    )
    return scope(state: keyPath, action: casePath)
  }
}

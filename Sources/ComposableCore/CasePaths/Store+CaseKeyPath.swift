extension Store {
  /// A store for a part of this store's state, its actions named by a case key path; the same
  /// instance for the same key paths.
  ///
  /// ```swift
  /// let child = store.scope(state: \.child, action: \.child)
  /// child === store.scope(state: \.child, action: \.child)  // true
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: toChildState, action: AnyCasePath(toChildAction))
  }

  /// A store for optional child state, or `nil` while the state is `nil`, its actions named by
  /// a case key path. Give the result its type (`Store<Child.State, Child.Action>?`): without
  /// it, `scope(state:action:)` makes a store of the optional state, as upstream.
  ///
  /// ```swift
  /// let detail: StoreOf<Detail>? = store.scope(state: \.detail, action: \.detail)
  /// ```
  ///
  /// The source-location parameters are not used: they are upstream's signature, and their
  /// defaults are what ranks this overload below the one above for an untyped call.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: AnyCasePath(toChildAction))
  }

  /// A store for a part of this store's state, its actions named by the case key path of one
  /// case (`\.child`): the overload Swift picks for such a key path (see `CaseMemberKeyPath`).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CaseMemberKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> where Action: CasePathable {
    scope(state: toChildState, action: AnyCasePath(toChildAction))
  }

  /// A store for optional child state, or `nil` while the state is `nil`, its actions named by
  /// the case key path of one case: the overload Swift picks for such a key path (see
  /// `CaseMemberKeyPath` and the `CaseKeyPath` overload above).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: CaseMemberKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? where Action: CasePathable {
    scope(state: toChildState, action: AnyCasePath(toChildAction))
  }
}

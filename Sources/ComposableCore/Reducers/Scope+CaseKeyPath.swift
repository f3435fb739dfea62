extension Scope {
  /// A scope on a stored part of the state, its actions named by a case key path.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Scope(state: \.profile, action: \.profile) { Profile() }
  /// }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// A scope on one case of an enum state, both named by case key paths; a child action that
  /// arrives while the state is in another case is reported.
  ///
  /// ```swift
  /// Scope(state: \.loggedIn, action: \.loggedIn) { LoggedIn() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: AnyCasePath(toChildState),
      action: AnyCasePath(toChildAction),
      child: child,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// A scope on a stored part of the state, its actions named by the case key path of one
  /// case (`\.profile`): the overload Swift picks for such a key path (see
  /// `CaseMemberKeyPath`).
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseMemberKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ParentAction: CasePathable, ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// A scope on one case of an enum state, both named by the case key path of one case
  /// (`\.loggedIn`): the overload Swift picks for such key paths (see `CaseMemberKeyPath`).
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseMemberKeyPath<ParentState, ChildState>,
    action toChildAction: CaseMemberKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  )
  where
    ParentState: CasePathable, ParentAction: CasePathable, ChildState == Child.State,
    ChildAction == Child.Action
  {
    self.init(
      state: AnyCasePath(toChildState),
      action: AnyCasePath(toChildAction),
      child: child,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

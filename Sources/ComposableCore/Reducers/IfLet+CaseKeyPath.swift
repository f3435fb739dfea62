extension Reducer {
  /// Runs a child reducer on optional child state while it is non-nil; the child's actions are
  /// named by a case key path. See `ifLet(_:action:then:)`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.child, action: \.child) { Child() }
  /// ```
  @inlinable
  public consuming func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?> & Sendable,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    ifLet(
      toWrappedState,
      action: AnyCasePath(toWrappedAction),
      then: wrapped,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs a presented child while its `PresentationState` is non-nil; its actions are named by
  /// a case key path. See `ifLet(_:action:destination:)`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination) { Destination() }
  /// ```
  @inlinable
  public consuming func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>
      & Sendable,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    ifLet(
      toPresentationState,
      action: AnyCasePath(toPresentationAction),
      destination: destination,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs a child reducer on optional child state while it is non-nil; the child's actions are
  /// named by the case key path of one case (`\.child`): the overload Swift picks for such a
  /// key path (see `CaseMemberKeyPath`).
  @inlinable
  public consuming func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?> & Sendable,
    action toWrappedAction: CaseMemberKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Wrapped>
  where Action: CasePathable, WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    ifLet(
      toWrappedState,
      action: AnyCasePath(toWrappedAction),
      then: wrapped,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs a presented child while its `PresentationState` is non-nil; its actions are named by
  /// the case key path of one case (`\.destination`): the overload Swift picks for such a key
  /// path (see `CaseMemberKeyPath`).
  @inlinable
  public consuming func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>
      & Sendable,
    action toPresentationAction: CaseMemberKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, Destination>
  where
    Action: CasePathable, DestinationState == Destination.State,
    DestinationAction == Destination.Action
  {
    ifLet(
      toPresentationState,
      action: AnyCasePath(toPresentationAction),
      destination: destination,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

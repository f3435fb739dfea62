extension Reducer {
  /// Runs an element reducer on the element of an `IdentifiedArray` that an action names; the
  /// element actions are named by a case key path. See `forEach(_:action:element:)`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.rows, action: \.rows) { Row() }
  /// ```
  @inlinable
  public consuming func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer
  >(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>> & Sendable,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    forEach(
      toElementsState,
      action: AnyCasePath(toElementAction),
      element: element,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs an element reducer on the element of an `IdentifiedArray` that an action names; the
  /// element actions are named by the case key path of one case (`\.rows`): the overload Swift
  /// picks for such a key path (see `CaseMemberKeyPath`).
  @inlinable
  public consuming func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer
  >(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>> & Sendable,
    action toElementAction: CaseMemberKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, ID, Element>
  where Action: CasePathable, ElementState == Element.State, ElementAction == Element.Action {
    forEach(
      toElementsState,
      action: AnyCasePath(toElementAction),
      element: element,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

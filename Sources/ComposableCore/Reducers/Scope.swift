/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.profile, action: .profile) { Profile() }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, SourceLocation)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// A scope on a stored part of the state.
  ///
  /// - Parameters:
  ///   - toChildState: Where the child's state is.
  ///   - toChildAction: Which parent action case carries the child's actions.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// A scope on one case of an enum state; a child action that arrives while the state is in
  /// another case is reported.
  ///
  /// ```swift
  /// Scope(state: .loggedIn, action: .loggedIn) { LoggedIn() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.toChildState = .casePath(toChildState, location)
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    switch toChildState {
    case let .keyPath(keyPath):
      return keyPath.modify(in: &state) { child.reduce(into: &$0, action: childAction) }
        .map(toChildAction.embed)
    case let .casePath(casePath, location):
      guard var childState = casePath.extract(state) else {
        reportWrongCase(action: action, state: state, location: location)
        return .none
      }
      let effect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
      return effect.map(toChildAction.embed)
    }
  }

  @usableFromInline
  func reportWrongCase(action: ParentAction, state: ParentState, location: SourceLocation) {
    reportIssue(
      """
      A "Scope" at "\(location)" received a child action when child state was set to a \
      different case.

        Action:
          \(describeCase(action))
        State:
          \(describeCase(state))

      A parent reducer may have changed the state to another case before this reducer \
      ran, or an effect sent this action after the state changed case. Run this "Scope" \
      before reducers that change the case, and cancel the child's effects when leaving it.
      """,
      location: location
    )
  }
}

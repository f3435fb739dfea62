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
  /// Where the child's state is when it is a property of the parent (nil for a case).
  ///
  /// Two optionals rather than one enum of the two: the specialized `reduce` copied the whole
  /// enum out of the scope (168 bytes, the case path's payload) and destroyed the copy through
  /// its value witnesses on every child action; a key path in its own field is one word.
  @usableFromInline let toChildKeyPath: WritableKeyPath<ParentState, Child.State>?
  /// Where the child's state is when it is a case of the parent, and where the scope was made
  /// (nil for a key path). Each initializer sets exactly one of the two.
  @usableFromInline
  let toChildCase: (path: AnyCasePath<ParentState, Child.State>, location: SourceLocation)?
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
    self.toChildKeyPath = toChildState
    self.toChildCase = nil
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
    self.toChildKeyPath = nil
    self.toChildCase = (toChildState, location)
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    if let keyPath = toChildKeyPath {
      return keyPath.modify(in: &state) { child.reduce(into: &$0, action: childAction) }
        .map(toChildAction.embed)
    }
    guard let (casePath, location) = toChildCase else { return .none }
    guard var childState = casePath.extract(state) else {
      Self.reportWrongCase(action: action, state: state, location: location)
      return .none
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = casePath.embed(childState)
    return effect.map(toChildAction.embed)
  }

  /// Static, so that a specialized `reduce` does not copy the whole scope (the child reducer
  /// in it) to pass `self` to this unspecialized call: the copy was made on entry, on every
  /// child action, whether the case matched or not.
  @usableFromInline
  static func reportWrongCase(action: ParentAction, state: ParentState, location: SourceLocation) {
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

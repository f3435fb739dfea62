extension Reducer {
  /// Runs a child reducer on optional child state while it is non-nil.
  ///
  /// The child runs before the parent; when the parent sets the child state to `nil`, the
  /// child's effects are cancelled. A child action that arrives while the state is `nil` is
  /// reported with this call's location.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.alert, action: .alert) { Alert() }
  /// ```
  @inlinable
  public consuming func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?> & Sendable,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: toWrappedAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `Reducer.ifLet(_:action:then:)` returns.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  @usableFromInline let location: SourceLocation

  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action)
    -> Effect<Parent.Action>
  {
    let childEffects = reduceChild(into: &state, action: action)
    let wasPresent = state[keyPath: toChildState] != nil
    let parentEffects = parent.reduce(into: &state, action: action)
    // Read again only when it can have gone away: a read through a key path is not free.
    guard wasPresent, state[keyPath: toChildState] == nil else {
      return .merging(childEffects, parentEffects)
    }
    let cancelID = EffectCancelID(
      id: AnyHashableSendable(childID),
      navigationIDPath: DependencyValues.inForce.navigationIDPath
    )
    return .merge(childEffects, parentEffects, .teardown(cancelID, kind: .ifLet))
  }

  /// The navigation step to the child (built only when an action needs it).
  @inlinable
  var childID: NavigationID {
    NavigationID(
      kind: .ifLet, keyPath: toChildState, elementID: nil,
      label: ReducerLabel(keyPath: toChildState, casePath: toChildAction))
  }

  @inlinable
  func reduceChild(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    guard state[keyPath: toChildState] != nil else {
      Self.reportMissingChild(action, location: location)
      return .none
    }
    let childID = self.childID
    var values = DependencyValues.inForce
    let path = values.navigationIDPath
    values.navigationIDPath = path.appending(childID)
    let effects = DependencyValues.$current.withValue(values) {
      child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
    }
    if case .none = effects.node { return .none }
    let cancelID = EffectCancelID(id: AnyHashableSendable(childID), navigationIDPath: path)
    return Effect(
      node: .cancellable(id: cancelID, cancelInFlight: false, effects.map(toChildAction.embed))
    )
  }

  /// Static for the reason `Scope.reportWrongCase` is: no copy of `self` for the call.
  @usableFromInline
  static func reportMissingChild(_ action: Parent.Action, location: SourceLocation) {
    reportIssue(
      """
      An "ifLet" at "\(location)" received a child action when child state was "nil".

        Action:
          \(describeCase(action))

      This usually means one of:

      • A parent reducer set child state to "nil" before this "ifLet" ran. Attach "ifLet" \
      to the parent so the child runs first.

      • An effect sent this action after child state became "nil". Its effects are \
      cancelled at that moment; an effect that was not started by the child must be \
      cancelled by hand.

      • The action was sent to a store while child state was "nil". Only send child \
      actions while the child is present.
      """,
      location: location
    )
  }
}

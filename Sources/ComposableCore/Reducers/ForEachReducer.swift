extension Reducer {
  /// Runs an element reducer on the element of an `IdentifiedArray` that an action names.
  ///
  /// Elements run before the parent. When the parent removes an element, the effects that
  /// element started are cancelled. An action for an id that is not in the array is reported
  /// with this call's location.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.rows, action: .rows) { Row() }
  /// ```
  @inlinable
  public consuming func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer
  >(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>> & Sendable,
    action toElementAction: AnyCasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    ForEachReducer(
      parent: self,
      element: element(),
      toElementsState: toElementsState,
      toElementAction: toElementAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `Reducer.forEach(_:action:element:)` returns.
public struct ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID == ID {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline
  let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
    & Sendable
  @usableFromInline
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let location: SourceLocation

  @inlinable
  init(
    parent: Parent,
    element: Element,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
      & Sendable,
    toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.element = element
    self.toElementsState = toElementsState
    self.toElementAction = toElementAction
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action)
    -> Effect<Parent.Action>
  {
    // Looked up once for the element, the ids before and the ids after.
    let offset = KeyPathOffsets.shared.offset(of: toElementsState)
    let elementEffects = reduceElement(into: &state, action: action, offset: offset)
    // Holding the ids costs nothing unless the parent changes them (then it pays one copy of
    // the id array, like the insertion or removal itself); `==` on an unchanged copy is O(1).
    let idsBefore = toElementsState.read(in: &state, offset: offset) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = toElementsState.read(in: &state, offset: offset) { $0.ids }
    guard idsBefore != idsAfter else {
      return .merging(elementEffects, parentEffects)
    }
    // The array says which ids are gone, comparing the places that changed (a `Set` of the
    // ids after hashed every id again, on every move and insertion as well).
    let removed = toElementsState.read(in: &state, offset: offset) { elements in
      elements.idsRemoved(since: idsBefore)
    }
    guard !removed.isEmpty else { return .merging(elementEffects, parentEffects) }
    let navigationIDPath = DependencyValues.inForce.navigationIDPath
    var cancels: [Effect<Parent.Action>] = []
    for id in removed {
      let cancelID = EffectCancelID(
        id: AnyHashableSendable(navigationID(for: id)), navigationIDPath: navigationIDPath)
      cancels.append(.teardown(cancelID, kind: .forEach))
    }
    return .merge([elementEffects, parentEffects] + cancels)
  }

  @inlinable
  func navigationID(for id: ID) -> NavigationID {
    NavigationID(
      kind: .forEach, keyPath: toElementsState, elementID: AnyHashableSendable(id),
      label: ReducerLabel(keyPath: toElementsState, casePath: toElementAction))
  }

  @inlinable
  func reduceElement(
    into state: inout Parent.State,
    action: Parent.Action,
    offset: Int?
  ) -> Effect<Parent.Action> {
    guard case let .element(id, elementAction)? = toElementAction.extract(action) else {
      return .none
    }
    let elementID = navigationID(for: id)
    var values = DependencyValues.inForce
    let path = values.navigationIDPath
    values.navigationIDPath = path.appending(elementID)
    let effects = DependencyValues.$current.withValue(values) {
      toElementsState.modify(in: &state, offset: offset) { elements in
        elements.modifyElement(id: id) { elementState in
          element.reduce(into: &elementState, action: elementAction)
        }
      }
    }
    guard let effects else {
      Self.reportMissingElement(action, location: location)
      return .none
    }
    if case .none = effects.node { return .none }
    let cancelID = EffectCancelID(id: AnyHashableSendable(elementID), navigationIDPath: path)
    let embed = toElementAction.embed
    return Effect(
      node: .cancellable(
        id: cancelID,
        cancelInFlight: false,
        effects.map { embed(.element(id: id, action: $0)) }
      )
    )
  }

  /// Static for the reason `Scope.reportWrongCase` is: no copy of `self` for the call.
  @usableFromInline
  static func reportMissingElement(_ action: Parent.Action, location: SourceLocation) {
    reportIssue(
      """
      A "forEach" at "\(location)" received an action for a missing element.

        Action:
          \(describeCase(action))

      This usually means one of:

      • A parent reducer removed the element with this id before this "forEach" ran. \
      Attach "forEach" to the parent so elements run first.

      • An effect sent this action after the element was removed. The element's effects \
      are cancelled at that moment; an effect that was not started by the element must \
      be cancelled by hand.

      • The action was sent to a store while no element had this id.
      """,
      location: location
    )
  }
}

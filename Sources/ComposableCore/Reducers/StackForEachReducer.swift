extension Reducer {
  /// Runs a destination reducer on the element of a navigation stack that an action names.
  ///
  /// As upstream: an element's action runs the element before the parent; `popFrom` runs the
  /// parent first (it still sees the elements) and then pops; `push` adds the element and then
  /// runs the parent. The effects of every element that leaves the stack — popped, or removed
  /// by the parent — are cancelled, and an element's effects can pop it with
  /// `@Dependency(\.dismiss)`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  @inlinable
  public consuming func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> StackForEachReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    forEach(
      toStackState,
      action: AnyCasePath(toStackAction),
      destination: destination,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs a destination reducer on the element of a navigation stack that an action names,
  /// named by the case key path of one case (`\.path`): the overload Swift picks for such a
  /// key path (see `CaseMemberKeyPath`).
  @inlinable
  public consuming func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: CaseMemberKeyPath<
      Action, StackAction<DestinationState, DestinationAction>
    >,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> StackForEachReducer<Self, Destination>
  where
    Action: CasePathable, DestinationState == Destination.State,
    DestinationAction == Destination.Action
  {
    forEach(
      toStackState,
      action: AnyCasePath(toStackAction),
      destination: destination,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs a destination reducer on the element of a navigation stack that an action names;
  /// the `AnyCasePath` spelling of `forEach(_:action:destination:)`.
  @inlinable
  public consuming func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> StackForEachReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    StackForEachReducer(
      base: self,
      destination: destination(),
      toStackState: toStackState,
      toStackAction: toStackAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `Reducer.forEach(_:action:destination:)` returns for a navigation stack.
public struct StackForEachReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline
  let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>> & Sendable
  @usableFromInline
  let toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let location: SourceLocation

  @inlinable
  init(
    base: Base,
    destination: Destination,
    toStackState: WritableKeyPath<Base.State, StackState<Destination.State>> & Sendable,
    toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>,
    location: SourceLocation
  ) {
    self.base = base
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.location = location
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let idsBefore = state[keyPath: toStackState].ids
    var destinationEffects = Effect<Base.Action>.none
    let baseEffects: Effect<Base.Action>

    switch toStackAction.extract(action) {
    case let .element(id, destinationAction)?:
      if state[keyPath: toStackState][id: id] != nil {
        destinationEffects = reduceElement(into: &state, id: id, action: destinationAction)
      } else {
        report(
          "received an action for a missing element",
          details: "Action:\n    \(describeCase(action))")
      }
      baseEffects = base.reduce(into: &state, action: action)

    case let .popFrom(id)?:
      let canPop = state[keyPath: toStackState].ids.contains(id)
      baseEffects = base.reduce(into: &state, action: action)
      if canPop {
        state[keyPath: toStackState].pop(from: id)
      } else {
        report(
          "received a \"popFrom\" action for a missing element",
          details: "ID:\n    \(id)\n  Path IDs:\n    \(state[keyPath: toStackState].ids)")
      }

    case let .push(id, element)?:
      if state[keyPath: toStackState].ids.contains(id) {
        report(
          "received a \"push\" action for an element it already contains",
          details: "ID:\n    \(id)\n  Path IDs:\n    \(state[keyPath: toStackState].ids)")
      } else {
        DependencyValues.inForce.stackElementID.take(id)
        state[keyPath: toStackState].push(element, id: id)
      }
      baseEffects = base.reduce(into: &state, action: action)

    case nil:
      baseEffects = base.reduce(into: &state, action: action)
    }

    let idsAfter = state[keyPath: toStackState].ids
    guard idsBefore != idsAfter else {
      return .merging(destinationEffects, baseEffects)
    }
    // Every element that left the stack, whoever removed it, takes its effects with it.
    let path = DependencyValues.inForce.navigationIDPath
    let remaining = Set(idsAfter)
    var effects = [destinationEffects, baseEffects]
    for id in idsBefore where !remaining.contains(id) {
      let cancelID = EffectCancelID(
        id: AnyHashableSendable(navigationID(for: id)), navigationIDPath: path)
      effects.append(.teardown(cancelID, kind: .stack))
    }
    return .merge(effects)
  }

  /// The navigation step to the element with an id.
  /// Identified by the id's generation, so that it reads `stack(path)#3` like a `forEach` row.
  func navigationID(for id: StackElementID) -> NavigationID {
    NavigationID(
      kind: .stack, keyPath: toStackState, elementID: AnyHashableSendable(id.generation),
      label: ReducerLabel(keyPath: toStackState, casePath: toStackAction))
  }

  /// Runs the destination on the element, its effects registered under the element's
  /// navigation path and able to pop it (`@Dependency(\.dismiss)`).
  func reduceElement(
    into state: inout Base.State,
    id: StackElementID,
    action destinationAction: Destination.Action
  ) -> Effect<Base.Action> {
    let elementID = navigationID(for: id)
    var values = DependencyValues.inForce
    let path = values.navigationIDPath
    values.navigationIDPath = path.appending(elementID)
    let effects = DependencyValues.$current.withValue(values) { () -> Effect<Destination.Action> in
      guard let index = state[keyPath: toStackState].ids.firstIndex(of: id) else { return .none }
      return destination.reduce(
        into: &state[keyPath: toStackState][index], action: destinationAction)
    }
    if case .none = effects.node { return .none }
    let embed = toStackAction.embed
    let cancelID = EffectCancelID(id: AnyHashableSendable(elementID), navigationIDPath: path)
    return Effect(
      node: .cancellable(
        id: cancelID,
        cancelInFlight: false,
        effects.map(
          { embed(.element(id: id, action: $0)) }, dismissingWith: embed(.popFrom(id: id)))
      )
    )
  }

  func report(_ problem: String, details: String) {
    reportIssue(
      """
      A "forEach" at "\(location)" \(problem).

        \(details)

      This usually means one of:

      • A parent reducer changed the stack before this "forEach" ran. Attach "forEach" to the \
      parent so elements run first.

      • An effect sent this action after the element was popped. An element's effects are \
      cancelled when it leaves the stack; an effect that was not started by the element must \
      be cancelled by hand.

      • The action was sent to a store while the stack did not hold this element.
      """,
      location: location
    )
  }
}

extension StackForEachReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .stack, typeName: String(describing: Destination.self),
      label: ReducerLabel(keyPath: toStackState, casePath: toStackAction).text,
      stateName: ReducerLabel.storedName(toStackState))
  }

  package var childReducers: [any Reducer] { [base, destination] }
}

extension Reducer {
  /// Runs a presented child while its `PresentationState` is non-nil.
  ///
  /// `.presented` actions run the child before the parent. `.dismiss` runs the parent first,
  /// with the child state still present, then sets it to `nil`. When the state becomes `nil`
  /// (dismissed, or set by the parent), the child's effects are cancelled at once.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$detail, action: .detail) { Detail() }
  /// ```
  @inlinable
  public consuming func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>
      & Sendable,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    PresentationReducer(
      base: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `Reducer.ifLet(_:action:destination:)` returns for presentation state.
public struct PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
    & Sendable
  @usableFromInline
  let toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>
  @usableFromInline let location: SourceLocation

  @inlinable
  init(
    base: Base,
    destination: Destination,
    toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
      & Sendable,
    toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>,
    location: SourceLocation
  ) {
    self.base = base
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let presentationAction = toPresentationAction.extract(action)
    // Each access through `\.$destination` (a computed key path) costs hundreds of
    // instructions in the key-path runtime: a presented action learns whether the destination
    // is there in the same access that runs it.
    var wasPresented: Bool
    var destinationEffects = Effect<Base.Action>.none

    switch presentationAction {
    case .none, .dismiss?:
      wasPresented = state[keyPath: toPresentationState].isPresented
    case let .presented(destinationAction)?:
      (wasPresented, destinationEffects) = reduceDestination(
        into: &state, action: destinationAction)
      if !wasPresented {
        Self.reportNotPresented(action, location: location)
      }
    }

    // The parent sees a dismissal with the destination still present, as upstream does; the
    // destination goes away after it.
    let baseEffects = base.reduce(into: &state, action: action)
    var dismissed = false
    if case .dismiss? = presentationAction {
      if wasPresented {
        state[keyPath: toPresentationState].wrappedValue = nil
        dismissed = true
      } else {
        Self.reportNotPresented(action, location: location)
      }
    }
    // Read again only when it can have gone away (not after the dismissal just done):
    // `\.$destination` is a computed key path, each read copies the whole presentation state
    // through the key-path runtime.
    guard wasPresented, dismissed || !state[keyPath: toPresentationState].isPresented
    else {
      return .merging(destinationEffects, baseEffects)
    }
    let teardownID = cancelID(in: DependencyValues.inForce.navigationIDPath)
    return .merge(
      destinationEffects, baseEffects, .teardown(teardownID, kind: .presentation))
  }

  /// Runs the destination on a presented action, in one access to the presentation state;
  /// returns whether the destination was there (it ran only then) and its effects.
  @inlinable
  func reduceDestination(
    into state: inout Base.State, action destinationAction: Destination.Action
  ) -> (wasPresented: Bool, effects: Effect<Base.Action>) {
    var values = DependencyValues.inForce
    let navigationIDPath = values.navigationIDPath
    let kept = keptIDs
    values.navigationIDPath =
      navigationIDPath.path.isEmpty ? kept.rootPath : navigationIDPath.appending(kept.step)
    let effects = DependencyValues.$current.withValue(values) {
      Self.reduce(destination, &state[keyPath: toPresentationState], destinationAction)
    }
    guard let effects else { return (false, .none) }
    if case .none = effects.node { return (true, .none) }
    let embed = toPresentationAction.embed
    return (true, Effect(
      node: .cancellable(
        id: Self.cancelID(kept, in: navigationIDPath),
        cancelInFlight: false,
        effects.map({ embed(.presented($0)) }, dismissingWith: embed(.dismiss))
      )
    ))
  }

  /// The destination's effects, or nil when nothing is presented.
  @inlinable
  static func reduce(
    _ destination: Destination, _ presentation: inout PresentationState<Destination.State>,
    _ action: Destination.Action
  ) -> Effect<Destination.Action>? {
    guard presentation.isPresented else { return nil }
    return destination.reduce(into: &presentation.wrappedValue!, action: action)
  }

  /// The navigation step to the destination (read only when an action needs it).
  @inlinable
  var destinationID: NavigationID {
    keptIDs.step
  }

  /// The step to the destination, the id of its effects and its reducer's path at the root,
  /// made once for this key path and case path (see `PresentationSteps`).
  @inlinable
  var keptIDs: PresentationSteps.Kept {
    PresentationSteps.shared.kept(for: toPresentationState, caseID: toPresentationAction.id) {
      NavigationID(
        kind: .presentation, keyPath: toPresentationState, elementID: nil,
        label: ReducerLabel(keyPath: toPresentationState, presentation: toPresentationAction))
    }
  }

  /// The id of the destination's effects under `path`: the kept one at the root.
  @inlinable
  static func cancelID(
    _ kept: PresentationSteps.Kept, in path: NavigationIDPath
  ) -> EffectCancelID {
    if path.path.isEmpty { return kept.rootCancelID }
    return EffectCancelID(id: AnyHashableSendable(kept.step), navigationIDPath: path)
  }

  @inlinable
  func cancelID(in path: NavigationIDPath) -> EffectCancelID {
    Self.cancelID(keptIDs, in: path)
  }

  /// Static for the reason `Scope.reportWrongCase` is: no copy of `self` for the call.
  @usableFromInline
  static func reportNotPresented(_ action: Base.Action, location: SourceLocation) {
    reportIssue(
      """
      An "ifLet" at "\(location)" received a presentation action when destination state \
      was absent.

        Action:
          \(describeCase(action))

      This usually means one of:

      • A parent reducer dismissed the destination before this "ifLet" ran. Attach "ifLet" \
      to the parent so the destination runs first.

      • An effect sent this action after the destination was dismissed. Its effects are \
      cancelled at that moment; an effect that was not started by the destination must be \
      cancelled by hand.

      • The action was sent to a store while nothing was presented.
      """,
      location: location
    )
  }
}

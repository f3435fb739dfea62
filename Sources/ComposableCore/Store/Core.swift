/// Where a sent action comes from, as the sender knows it (the core makes it a step's
/// `ActionOrigin`).
@usableFromInline
package enum SendOrigin {
  /// Outside the store: a view, a test, other code (or an observation callback, when the
  /// store is notifying its observers).
  case store
  /// The running effect with this id; the tasks its action starts join the group of the send
  /// that started it.
  case effect(EffectTaskGroup?, EffectID)
  /// An inspector attached to the running store.
  case inspector

  /// The task group the effects of the action join.
  @inlinable
  var group: EffectTaskGroup? {
    if case .effect(let group, _) = self { return group }
    return nil
  }

  /// Whether a running effect sent the action.
  @inlinable
  var isEffect: Bool {
    if case .effect = self { return true }
    return false
  }

  /// Whether an attached inspector sent the action.
  @inlinable
  var isInspector: Bool {
    if case .inspector = self { return true }
    return false
  }
}

/// The brain behind a `Store`: the root core runs the reducer and the effects; scoped cores
/// are thin views that narrow state and widen actions on the way to the root.
@MainActor
@usableFromInline
package protocol Core<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// The current state.
  var state: State { get }
  /// Sends an action to the root.
  func send(_ action: Action, origin: SendOrigin) -> StoreTask
  /// The observation bookkeeping shared by every store of one root.
  var observation: StoreObservation { get }
}

/// A core that narrows a parent core by a key path and widens actions by an embedding.
@MainActor
final class ScopedCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: Core {
  let parent: any Core<ParentState, ParentAction>
  let toState: KeyPath<ParentState, State>
  let fromAction: (Action) -> ParentAction

  init(
    parent: any Core<ParentState, ParentAction>,
    toState: KeyPath<ParentState, State>,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
  }

  var state: State {
    parent.state[keyPath: toState]
  }

  func send(_ action: Action, origin: SendOrigin) -> StoreTask {
    parent.send(fromAction(action), origin: origin)
  }

  var observation: StoreObservation {
    parent.observation
  }
}

/// A core on optional parent state: keeps the last non-nil state, so a view that outlives the
/// child for a moment still reads something.
@MainActor
final class IfLetCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: Core {
  let parent: any Core<ParentState, ParentAction>
  let toState: KeyPath<ParentState, State?>
  let fromAction: (Action) -> ParentAction
  private var lastState: State

  init(
    parent: any Core<ParentState, ParentAction>,
    toState: KeyPath<ParentState, State?>,
    initialState: State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
    self.lastState = initialState
  }

  var state: State {
    if let current = parent.state[keyPath: toState] {
      lastState = current
      return current
    }
    return lastState
  }

  var isPresent: Bool {
    parent.state[keyPath: toState] != nil
  }

  func send(_ action: Action, origin: SendOrigin) -> StoreTask {
    parent.send(fromAction(action), origin: origin)
  }

  var observation: StoreObservation {
    parent.observation
  }
}

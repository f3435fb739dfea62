import Observation

/// Runs a feature: holds its state (through its core), sends actions to its reducer, runs the
/// effects.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.plus)
/// store.count  // 1 (observable: a reader of `count` is not told about other changes)
/// ```
///
/// Scoped stores (`scope(state:action:)`) are thin views of the root store, cached per
/// key path and case.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable> {
  package let core: any Core<State, Action>
  /// Sends to the core. For a root store this closure is created where the store is created
  /// (`init` is inlinable), so it calls a send specialized for the concrete reducer.
  @usableFromInline let sendToCore: @MainActor (Action, SendOrigin) -> StoreTask
  let observedPrefix: [AnyKeyPath & Sendable]
  var children: [ScopeID: AnyObject] = [:]

  /// A root store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start with.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Overrides for the dependencies of this store (its reducer and
  ///     its effects); the values in force where the store is created are the starting point.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    var values = DependencyValues.inForce
    prepareDependencies?(&values)
    let (state, reducer) = DependencyValues.$current.withValue(values) {
      (initialState(), reducer())
    }
    let core = RootCore(initialState: state, reducer: reducer, dependencies: values)
    self.init(rootCore: core)
  }

  /// A store on a root core, sending through a closure specialized for its reducer.
  @inlinable
  package convenience init<R: Reducer<State, Action>>(rootCore: RootCore<R>) {
    rootCore.specializeHooks()
    self.init(
      core: rootCore,
      observedPrefix: [],
      send: { action, origin in rootCore.send(action, origin: origin) }
    )
  }

  package convenience init(core: any Core<State, Action>, observedPrefix: [AnyKeyPath & Sendable])
  {
    self.init(
      core: core,
      observedPrefix: observedPrefix,
      send: { action, origin in core.send(action, origin: origin) }
    )
  }

  @usableFromInline
  init(
    core: any Core<State, Action>,
    observedPrefix: [AnyKeyPath & Sendable],
    send: @escaping @MainActor (Action, SendOrigin) -> StoreTask
  ) {
    self.core = core
    self.observedPrefix = observedPrefix
    self.sendToCore = send
  }

  /// The current state (observed as a whole: prefer reading members, `store.count`).
  public var state: State {
    let value = core.state
    core.observation.access(
      key: ObservedKey(path: observedPrefix, marker: .value),
      value: value,
      read: { [weak core] in core?.state }
    )
    return value
  }

  /// A member of the state, observed on its own.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value> & Sendable) -> Value {
    let value = core.state[keyPath: keyPath]
    core.observation.access(
      key: ObservedKey(path: observedPrefix + [keyPath], marker: .value),
      value: value,
      read: { [weak core] in core?.state[keyPath: keyPath] }
    )
    return value
  }

  /// Reads the state without observing it.
  public func withState<R>(_ body: (State) -> R) -> R {
    body(core.state)
  }

  /// Sends an action: the reducer runs now, effects start now.
  ///
  /// Sending while the store is already handling an action (from inside a reducer) is
  /// reported; the action is handled after the current one.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendToCore(action, .store)
  }

  /// Sends an action from a sender the store should know about (an attached inspector).
  @discardableResult
  package func send(_ action: Action, origin: SendOrigin) -> StoreTask {
    sendToCore(action, origin)
  }
}

extension Store: Observable {}

/// The identity of a cached child store.
struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: CasePathID
  let isOptional: Bool
}

/// The store of a feature: `StoreOf<Counter>` is `Store<Counter.State, Counter.Action>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

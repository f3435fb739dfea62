/// The one instrumentation seam of the architecture: a root core tells an instrument (the
/// Recorder, a test transcript, later a live inspector) every fact it owns, as it happens.
///
/// In the spirit of GRDB's `TransactionObserver`: the owner of the facts reports them, so an
/// instrument never counts, guesses or matches back. The public API carries nothing for it.
///
/// ```swift
/// final class Printer: StoreInstrument {
///   func stepBegan(_ step: Int, action: App.Action, origin: ActionOrigin) {
///     print("step \(step) \(origin) \(action)")
///   }
///   …
/// }
/// // store.send(.refresh), whose reducer returns .merge(.send(.started), .run { … }):
/// // step 1 user refresh
/// // step 2 send of step 1 started
/// // step 3 effect 5F0C… loaded
/// ```
///
/// **Installation.** A root core (`RootCore`, which `Store` and `TestStore` both run on) looks
/// once, when it is created, for `StoreInstrumentProviding` reducers in the static composition
/// of its reducer: the walk `reducerNode(of:)` makes, through `body`, the built-in operators and
/// `Reduce(someReducer)`. So `App().recording(to: r).dependency(\.uuid, .incrementing)` or a
/// recorder inside `CombineReducers` is found, and where it sits does not change what it is
/// told. A provider whose types are not the root's (inside a `Scope`) refuses, with a runtime
/// warning; several instruments are told in the order they were found. Nothing is installed
/// per send; with no instrument a send pays one `nil` check.
///
/// **Facts**, all on the main actor, in the order they happen:
/// - `dependencyKeysLogged`: the store's `DependencyKeyLog`, which notes each dependency key its
///   reducers and effects read, once per key, from any thread (read it when needed).
/// - `storeStarted`: the initial state (step 0), when the store is created.
/// - `stepBegan`/`stepEnded`: the core numbers each reduced action (1, 2, …); the origin is
///   exact under re-entrant sends, nested `.send` chains, `.concatenate`, `.map` and merges.
///   `stepEnded` gets the root state after the whole root reducer, where the store keeps it:
///   an instrument that keeps it copies it (a few retains) straight to where it keeps it
///   (holding it while the next reducer runs makes that reducer copy on write what it
///   changes); and the reducer's duration.
/// - `dependencyRead`: between them, each value the reducer read from `uuid`, `date`,
///   `withRandomNumberGenerator` or `continuousClock.now`, whatever overrides are in force (the
///   generators report themselves when called on the reducing thread during a reduce).
/// - `effectStarted`: each effect task the core starts, with the id the core tracks it by.
///   Actions it sends come back as steps whose origin is `.effect(id)`.
/// - `effectFinished` / `effectsCancelled`: how each started effect ended, exactly once.
///   A cancellation names its cause and the step that caused it (nil: the store went away,
///   `StoreTask.cancel()`, a test skipping effects). `Effect.cancel(id:)` and child teardowns
///   take effect while the reducer that created them runs, so they are reported between
///   `stepBegan` and `stepEnded` of that step.
/// - `inspectorStep`: an attached inspector replaced the state (a jump, the return to the
///   present) or went on from a jumped state: a numbered step without an action, with the
///   state after it. The effects `continueFrom` abandons are reported cancelled after it.
///
/// **Control.** `storeControlled(by:)` hands the instrument the store's `StoreControl` once,
/// after `storeStarted`: pause, jump, resume, continue from here and send as the inspector.
/// The core owns its instrument, so an instrument keeps the control weakly.
@MainActor
@usableFromInline
package protocol StoreInstrument<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// The store's log of the dependency keys its features read, once, before `storeStarted`.
  func dependencyKeysLogged(_ log: DependencyKeyLog)
  /// The store was created with this state: step 0.
  func storeStarted(state: borrowing State)
  /// The core is about to reduce `action`, step number `step`, sent from `origin`.
  func stepBegan(_ step: Int, action: Action, origin: ActionOrigin)
  /// The reducer of the current step read a non-deterministic dependency.
  func dependencyRead(_ read: DependencyValueRead)
  /// The root reducer returned: `state` points at the state after step `step` in the store's
  /// own storage, valid during the call only (`action` is the step's action again, so that an
  /// instrument need not keep it from `stepBegan`). The reducer started at `reducerStart`
  /// (`MonotonicClock` nanoseconds) and ran `reducerNanos`: an instrument timing the step on
  /// that clock reuses the reading instead of taking its own.
  ///
  /// A pointer, not the state: passed as a value (consumed or borrowed), the core copied the
  /// state's 192 bytes to its stack (Showcase) and the instrument copied them again on their
  /// way to where it keeps them; from the pointer it copies them once, there.
  func stepEnded(
    _ step: Int, action: Action, state: UnsafePointer<State>, reducerStart: UInt64,
    reducerNanos: UInt64)
  /// The core started an effect task. `launch` is consumed: an instrument that keeps it
  /// moves it where it keeps it (its cancellation ids are not retained again).
  func effectStarted(_ launch: consuming EffectLaunch)
  /// An effect's operation returned without being cancelled.
  func effectFinished(_ id: EffectID)
  /// The core cancelled running effects (`ids` in the order they were started).
  func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?)
  /// The core cancelled one running effect: `effectsCancelled` without a list to allocate,
  /// for the common case.
  func effectCancelled(_ id: EffectID, cause: EffectCancelCause, step: Int?)
  /// An attached inspector made step `step` without an action; `state` is the state after it.
  func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State)
  /// The store's control, for an instrument that steers the store (keep it weakly).
  func storeControlled(by control: any StoreControl<State, Action>)
}

extension StoreInstrument {
  /// Instruments that hear every cancellation as a list hear this one as a list of one.
  package func effectCancelled(_ id: EffectID, cause: EffectCancelCause, step: Int?) {
    effectsCancelled([id], cause: cause, step: step)
  }
  /// Instruments that do not report the clients a feature read need not keep the log.
  package func dependencyKeysLogged(_ log: DependencyKeyLog) {}
  /// Instruments that only watch need not hear of an inspector's steps.
  package func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State) {}
  /// Instruments that only watch do not keep the control.
  package func storeControlled(by control: any StoreControl<State, Action>) {}
}

/// What an instrument provider learns about the store it is asked to instrument.
///
/// ```swift
/// // In a provider: description.rootTypeName  // "AppFeature"
/// ```
package struct InstrumentedStore: Sendable {
  /// The type of the root reducer, as `String(describing:)` prints it.
  package var rootTypeName: String
  /// The static composition of the root reducer.
  package var tree: ReducerNode

  package init(rootTypeName: String, tree: ReducerNode) {
    self.rootTypeName = rootTypeName
    self.tree = tree
  }
}

/// A reducer that brings an instrument for the store it is part of (the Recorder's
/// `RecordingReducer`). The root core finds it in its reducer's composition when it is created.
///
/// ```swift
/// extension RecordingReducer: StoreInstrumentProviding {
///   func makeInstrument<S, A>(for store: InstrumentedStore) -> (any StoreInstrument<S, A>)? {
///     …  // nil, with a runtime warning, when S and A are not its State and Action
///   }
/// }
/// ```
package protocol StoreInstrumentProviding {
  /// The instrument for a store whose root state and action types are `State` and `Action`,
  /// or nil when this provider cannot instrument it (it reports why).
  @MainActor
  func makeInstrument<State, Action: Sendable>(for store: InstrumentedStore)
    -> (any StoreInstrument<State, Action>)?
}

/// The instrument providers in a reducer's static composition, in tree order.
///
/// ```swift
/// instrumentProviders(in: App().recording(to: recorder).dependency(\.uuid, .incrementing))
/// // [RecordingReducer<App>]
/// ```
package func instrumentProviders<R: Reducer>(in reducer: R) -> [any StoreInstrumentProviding] {
  var found: [any StoreInstrumentProviding] = []
  collect(reducer, path: [])
  return found

  func collect<Child: Reducer>(_ reducer: Child, path: Set<ObjectIdentifier>) {
    if let provider = reducer as? any StoreInstrumentProviding {
      found.append(provider)
    }
    var path = path
    for child in childReducers(of: reducer, path: &path) {
      collect(child, path: path)
    }
  }
}

/// The instruments the providers in `reducer` make for a store of its types (none: nil).
@MainActor
package func makeInstrument<R: Reducer>(for reducer: R)
  -> (any StoreInstrument<R.State, R.Action>)?
{
  let providers = instrumentProviders(in: reducer)
  guard !providers.isEmpty else { return nil }
  let store = InstrumentedStore(
    rootTypeName: String(describing: R.self), tree: reducerNode(of: reducer))
  let instruments: [any StoreInstrument<R.State, R.Action>] = providers.compactMap {
    $0.makeInstrument(for: store)
  }
  switch instruments.count {
  case 0: return nil
  case 1: return instruments[0]
  default: return InstrumentFanOut(instruments)
  }
}

import Synchronization

/// The core of a root store: runs the reducer, buffers actions, starts, tracks and cancels
/// effects, and tells its instrument (see `StoreInstrument`) every fact it owns.
///
/// `send` handles one batch: the sent action, then every action buffered meanwhile (actions
/// from synchronous `.send` effects, breadth-first, and re-entrant sends), first in first out.
/// Observers are notified once per batch.
///
/// The sending path is `@inlinable` so that it is specialized for the concrete reducer in the
/// module that creates the store: unspecialized generic code pays a metadata lookup for every
/// generic type it touches, which made a bare send cost ~1 µs instead of tens of nanoseconds.
/// The instrument is fixed when the core is created, so a store without one pays a `nil` check
/// per send, and an instrumented one takes its own specialized loop.
@MainActor
@usableFromInline
package final class RootCore<Root: Reducer>: Core, ReducingCore, EffectTaskGroupOwner {
  @usableFromInline package typealias State = Root.State
  @usableFromInline package typealias Action = Root.Action

  @usableFromInline let storage: StateStorage<State>
  @usableFromInline let reducer: Root
  @usableFromInline let dependencies: DependencyValues
  @usableFromInline let needsDependencies: Bool
  /// The instrument the reducer brought, if any: told every step, effect and cancellation.
  @usableFromInline let instrument: (any StoreInstrument<State, Action>)?
  /// The batch's first action, from its send until the batch ends (initialized only then): a
  /// slot made once with the core. Most batches are that one action; in `bufferedActions` it
  /// was appended, copied out and removed again, about 100 instructions a send more.
  @usableFromInline let firstAction = UnsafeMutablePointer<Action>.allocate(capacity: 1)
  // Only touched on the main actor and never across a call that could touch them again
  // (the reducer mutates the state through `storage`, not through `self`): the dynamic
  // exclusivity checks would cost more than the rest of a bare send.
  /// The actions sent while a batch runs (after its first one).
  @exclusivity(unchecked) @usableFromInline var bufferedActions: [Action] = []
  /// The origin of the batch's first action (kept only when instrumented): most batches are
  /// one action, which then buffers no origin (appending and clearing a list of them cost
  /// about 80 instructions a recorded send).
  @exclusivity(unchecked) @usableFromInline var firstOrigin = ActionOrigin.user
  /// The origin of each buffered action (kept only when instrumented): `bufferedOrigins[i]` is
  /// `bufferedActions[i]`'s.
  @exclusivity(unchecked) @usableFromInline var bufferedOrigins: [ActionOrigin] = []
  @exclusivity(unchecked) @usableFromInline var isSending = false
  /// The position in `bufferedActions` of the action being reduced; -1 for the first one (in
  /// `firstAction`).
  @exclusivity(unchecked) @usableFromInline var processingIndex = 0
  /// The number of the last step (instrumented only).
  @exclusivity(unchecked) @usableFromInline var stepCount = 0
  /// The step being reduced or launched (instrumented only).
  @exclusivity(unchecked) @usableFromInline var currentStep: Int?
  /// Whether observers are being told about a batch: a send from outside is then `.observer`.
  @exclusivity(unchecked) @usableFromInline var isNotifyingObservers = false
  /// Whether an inspector paused the store: actions not sent by it are held (see
  /// `RootCore+Control`). Checked only when instrumented: only an instrument can pause.
  @exclusivity(unchecked) @usableFromInline var isHolding = false
  /// What an attached inspector did to the store (see `RootCore+Control`).
  var inspection = Inspection()
  /// This core as the reducing context holds it, made once (forming the existential per batch
  /// would look the conformance up each time).
  @usableFromInline let hooks = ReducingHooks()
  /// The process's reducing context, kept here so that a batch reaches it directly.
  @usableFromInline let context = ReducingContext.shared
  // Unchecked like the batch's fields: the effect bookkeeping is inlined into the app's module,
  // where each access would otherwise pay a dynamic exclusivity check.
  @exclusivity(unchecked) @usableFromInline var runningEffects = RunningEffectList()
  /// The effects registered under each key (each cancellation id at each prefix of its path),
  /// in the order they started. A key rarely holds more than a few, so a list (searched when
  /// one is removed) is cheaper than a set, whose storage and hashing every registration paid
  /// for.
  @exclusivity(unchecked) @usableFromInline var cancellables: [CancelKey: KeyedEffects] = [:]
  /// Numbers effects in the order they started, to report them in that order.
  @exclusivity(unchecked) @usableFromInline var launchCount = 0
  /// The first `now` read from each clock type (instrumented only).
  private var clockOrigins = ClockOrigins()
  @usableFromInline package let observation = StoreObservation()
  /// What this store's effects reach of it besides `send` (cancellation by id, throttles).
  @usableFromInline package let effectScope = EffectScope()
  /// The weak reference to this core that its effect task groups share.
  @usableFromInline let groupOwner = EffectTaskGroupOwnerReference()

  /// A root core with the dependencies in force (captured now, applied to every batch); its
  /// instrument is the one the reducer's composition brings, if any.
  @usableFromInline
  package convenience init(initialState: State, reducer: Root, dependencies: DependencyValues) {
    let instrument = DependencyValues.$current.withValue(dependencies) {
      makeInstrument(for: reducer)
    }
    self.init(
      initialState: initialState, reducer: reducer, dependencies: dependencies,
      instrument: instrument)
  }

  /// A root core told to `instrument` (a test store finds the instrument in the reducer it
  /// tests, not in its own wrapper).
  package init(
    initialState: State, reducer: Root, dependencies: DependencyValues,
    instrument: (any StoreInstrument<State, Action>)?
  ) {
    storage = StateStorage(initialState)
    self.reducer = reducer
    self.dependencies = dependencies
    needsDependencies = !dependencies.isDefault
    self.instrument = instrument
    hooks.core = self
    groupOwner.owner = self
    // Every core reaches `cancelNow` through the closure (generic code here; `Store.init`
    // installs one specialized for the app's reducer).
    specializeHooks()
    // An instrumented store's features note the keys they read in its log: its reducers
    // through the reducing context, its effects through the dependencies they capture.
    if let instrument {
      let log = DependencyKeyLog()
      hooks.keyLog = log
      instrument.dependencyKeysLogged(log)
    }
    // `Task.cancel(id:)` is no reducer's request: its cancellation has no step.
    effectScope.connect { [weak self] id in
      self?.cancelEffects(id: id, cause: .cancel(id), step: nil)
    }
    instrument?.storeStarted(state: storage.pointer.pointee)
    instrument?.storeControlled(by: self)
  }

  /// Destroys the state, then cancels every effect still running.
  isolated deinit {
    storage.destroy()
    cancelEverything(cause: .storeTeardown)
    // Empty: a batch holds the core until it ends.
    firstAction.deallocate()
  }

  @inlinable
  package var state: State {
    storage.pointer.pointee
  }

  /// The effects running now, each with the action whose reducer returned it.
  package var effectsInFlight: [(id: EffectID, action: Action)] {
    runningEffects.all.compactMap { effect in
      guard effect.parent == nil, !effect.isCompleted, let box = effect.action else {
        return nil
      }
      return (effect.id, unsafeDowncast(box, to: BoxedAction<Action>.self).action)
    }
  }

  /// The number of effect tasks the core has not seen end that wait on no other effect task: a
  /// concatenation waiting for its current part is not counted, the part is. When each of them
  /// sleeps on a test clock, nothing happens until the clock moves.
  ///
  /// An operation that returned counts until the core has done its bookkeeping on the main
  /// actor (and told its instrument the effect finished): a recording stopped once this
  /// matches the sleepers has every ended effect finished, not unfinished.
  package var pendingOperationCount: Int {
    var waiting = Set<EffectID>()
    let effects = runningEffects.all
    for effect in effects {
      if let parent = effect.parent { waiting.insert(parent) }
    }
    return effects.count { !waiting.contains($0.id) }
  }

  // MARK: Sending

  @inlinable
  package func send(_ action: Action, origin: SendOrigin) -> StoreTask {
    if instrument != nil {
      if isHolding, !origin.isInspector {
        return hold(action, origin: origin)
      }
      bufferOrigin(actionOrigin(of: origin))
    }
    if isSending {
      if case .store = origin {
        reportReentrantSend(action)
      }
      bufferedActions.append(action)
      return StoreTask(group: nil)
    }
    firstAction.initialize(to: action)
    // An effect's task carries the dependencies of the reducer that created it (its navigation
    // path among them): the reducers must not run with those.
    if needsDependencies || origin.isEffect {
      return DependencyValues.$current.withValue(dependencies) {
        runBatch(group: origin.group)
      }
    }
    return runBatch(group: origin.group)
  }

  /// Empties a batch's buffer, keeping its capacity: one action is the common buffer, and
  /// `removeLast` is much cheaper than `removeAll(keepingCapacity:)`.
  @inlinable
  static func clear<Element>(_ buffer: inout [Element]) {
    if buffer.count == 1 {
      buffer.removeLast()
    } else {
      buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Keeps the origin of the action about to be sent or buffered (instrumented only): the
  /// first of a batch in `firstOrigin`, the others in `bufferedOrigins`.
  @inlinable
  func bufferOrigin(_ origin: ActionOrigin) {
    if !isSending {
      firstOrigin = origin
    } else {
      bufferedOrigins.append(origin)
    }
  }

  /// The origin of a step, from its sender's point of view and the core's.
  @inlinable
  func actionOrigin(of origin: SendOrigin) -> ActionOrigin {
    switch origin {
    case .store: isNotifyingObservers ? .observer : .user
    case .effect(_, let id): .effect(id)
    case .inspector: .inspector
    }
  }

  @inlinable
  func runBatch(group initialGroup: EffectTaskGroup?) -> StoreTask {
    if instrument != nil {
      return runInstrumentedBatch(group: initialGroup)
    }
    isSending = true
    let outer = context.enter(hooks)
    var group = initialGroup
    var index = -1
    while index < bufferedActions.count {
      processingIndex = index
      let action = index < 0 ? firstAction.pointee : bufferedActions[index]
      index += 1
      let effect = reducer.reduce(into: &storage.pointer.pointee, action: action)
      if case .none = effect.node { continue }
      group = launchRoot(effect, action: consume action, step: 0, group: group)
    }
    context.leave(outer)
    endBatch()
    isSending = false
    if observation.isObserved {
      observation.didFinishBatch()
    }
    return StoreTask(group: group)
  }

  /// `runBatch`, telling the instrument each step: its origin, the dependency values its
  /// reducer read (the core is the reading context while the reducer runs), the state after
  /// it, and the effects it started.
  ///
  /// A loop of its own rather than checks inside `runBatch`'s: a store without an instrument
  /// pays for none of this.
  @inlinable
  func runInstrumentedBatch(group initialGroup: EffectTaskGroup?) -> StoreTask {
    // A `let`, read in place: binding it would retain and release it each batch.
    let instrument = self.instrument.unsafelyUnwrapped
    isSending = true
    let outer = context.enter(hooks)
    var group = initialGroup
    var index = -1
    while index < bufferedActions.count {
      processingIndex = index
      let action = index < 0 ? firstAction.pointee : bufferedActions[index]
      let origin = index < 0 ? firstOrigin : bufferedOrigins[index]
      index += 1
      stepCount += 1
      let step = stepCount
      currentStep = step
      instrument.stepBegan(step, action: action, origin: origin)
      hooks.isReading = true
      let start = MonotonicClock.nanoseconds()
      let effect = reducer.reduce(into: &storage.pointer.pointee, action: action)
      let end = MonotonicClock.nanoseconds()
      hooks.isReading = false
      instrument.stepEnded(
        step, action: action, state: UnsafePointer(storage.pointer), reducerStart: start,
        reducerNanos: end &- start)
      if case .none = effect.node { continue }
      group = launchRoot(effect, action: consume action, step: step, group: group)
    }
    currentStep = nil
    context.leave(outer)
    endBatch()
    if !bufferedOrigins.isEmpty { Self.clear(&bufferedOrigins) }
    isSending = false
    if observation.isObserved {
      notifyObservers()
    }
    return StoreTask(group: group)
  }

  /// Lets go of a batch's actions: the first one's slot, and the buffer when it was used.
  @inlinable
  func endBatch() {
    firstAction.deinitialize(count: 1)
    if !bufferedActions.isEmpty {
      Self.clear(&bufferedActions)
    }
  }

  /// Tells observers about the state after a batch (or an inspector's step).
  @usableFromInline
  func notifyObservers() {
    // An observer's send runs a batch of its own inside this notification.
    let wasNotifying = isNotifyingObservers
    isNotifyingObservers = true
    observation.didFinishBatch()
    isNotifyingObservers = wasNotifying
  }

  /// Starts an effect a reducer returned; returns the task group of the batch. The batch's
  /// copy of the action is its last use: it is moved into the box its effects share, not
  /// copied and then destroyed.
  @inlinable
  func launchRoot(
    _ effect: Effect<Action>,
    action: consuming Action,
    step: Int,
    group: EffectTaskGroup?
  ) -> EffectTaskGroup? {
    var context = EffectContext(
      group: group, action: BoxedAction(action), step: step, parent: nil)
    // Nothing awaits a reducer's effects here: no list of their tasks is built.
    var tasks: [Task<Void, Never>]? = nil
    launch(effect, context: &context, ids: [], tasks: &tasks)
    return context.group
  }

  @usableFromInline
  func reportReentrantSend(_ action: Action) {
    let current =
      processingIndex < 0
      ? describeCase(firstAction.pointee)
      : processingIndex < bufferedActions.count
        ? describeCase(bufferedActions[processingIndex]) : "an action"
    reportIssue(
      """
      The store was sent the action \(describeCase(action)) while it was processing \
      \(current).

      Sending an action from inside a reducer (or from code a reducer calls) is not \
      supported: the action is queued and handled after the current one. Return \
      ".send(\(describeCase(action)))" from the reducer instead.
      """
    )
  }

  // MARK: Effects

  /// What an effect needs to know about where it was started.
  @usableFromInline
  struct EffectContext {
    @usableFromInline var group: EffectTaskGroup?
    /// The action whose reducer returned the effect, boxed once for all the effects it starts.
    @usableFromInline var action: BoxedAction<Action>?
    /// The step whose reducer returned the effect (0 when not instrumented).
    @usableFromInline var step: Int
    /// The concatenation running the effect, if one is.
    @usableFromInline var parent: EffectID?

    @inlinable
    init(group: EffectTaskGroup?, action: BoxedAction<Action>?, step: Int, parent: EffectID?) {
      self.group = group
      self.action = action
      self.step = step
      self.parent = parent
    }

    /// The group tasks join; created on the first task of a batch.
    @inlinable
    mutating func taskGroup(core: RootCore) -> EffectTaskGroup {
      if let group { return group }
      let group = EffectTaskGroup(owner: core.groupOwner)
      self.group = group
      return group
    }
  }

  /// Starts an effect; appends the tasks it started to `tasks` when they are collected (a
  /// concatenation awaits them; a reducer's effects, the common case, build no list).
  @inlinable
  func launch(
    _ effect: Effect<Action>,
    context: inout EffectContext,
    ids: [EffectCancelID],
    tasks: inout [Task<Void, Never>]?
  ) {
    switch effect.node {
    case .none:
      return
    case let .send(action):
      if let parent = context.parent {
        // A part of a concatenation, run by its task after an asynchronous part.
        _ = send(action, origin: .effect(context.group, parent))
      } else {
        buffer(action, origin: .send(step: context.step))
      }
    case let .run(run):
      let task = startRun(run, context: &context, ids: ids)
      tasks?.append(task)
    case let .merge(children):
      for child in children {
        launch(child, context: &context, ids: ids, tasks: &tasks)
      }
    case let .concatenate(children):
      var remaining = children[...]
      // Leading synchronous parts happen now, like the first element of a concatenation
      // of synchronous publishers.
      while let first = remaining.first, first.isSynchronous {
        launch(first, context: &context, ids: ids, tasks: &tasks)
        remaining = remaining.dropFirst()
      }
      if !remaining.isEmpty {
        let task = startSequence(Array(remaining), context: &context, ids: ids)
        tasks?.append(task)
      }
    case let .cancellable(id, cancelInFlight, child):
      if cancelInFlight {
        cancel(id: id, cause: .cancelInFlight(id), step: context.step)
      }
      // A cancellable right inside the first one (a presented child's, which presentation
      // makes cancellable under the destination's id): both ids go into one array, made at its
      // size, in the same order of cancellations; launching the inner one on its own made the
      // outer's one-element array first, for nothing else.
      if ids.isEmpty, case let .cancellable(innerID, innerCancelInFlight, grandchild) = child.node
      {
        if innerCancelInFlight {
          cancel(id: innerID, cause: .cancelInFlight(innerID), step: context.step)
        }
        launch(grandchild, context: &context, ids: [id, innerID], tasks: &tasks)
        return
      }
      launch(child, context: &context, ids: EffectCancelID.nested(ids, id), tasks: &tasks)
    case let .cancel(id, reason, isPerformed):
      if !isPerformed {
        cancel(id: id, cause: Self.cause(of: reason, id: id), step: context.step)
      }
    }
  }

  /// Queues an action behind the batch's (a synchronous `.send`).
  @inlinable
  func buffer(_ action: Action, origin: ActionOrigin) {
    if instrument != nil {
      bufferOrigin(origin)
    }
    bufferedActions.append(action)
  }

  /// Registers an effect about to start under each of `ids` at each prefix of its path and
  /// returns its record, which its task is created with (the record is the task's flag) and
  /// then given to `start(_:task:kind:location:ids:)`.
  @inlinable
  func register(
    _ id: EffectID,
    context: inout EffectContext,
    ids: [EffectCancelID]
  ) -> RunningEffect {
    launchCount += 1
    // The record keeps the ids (the launch's own array), not its keys: they are made again
    // when it ends, without allocating (see `CancelKey`).
    let effect = RunningEffect(
      id: id,
      cancelIDs: ids,
      action: context.action,
      parent: context.parent,
      group: context.taskGroup(core: self),
      launch: launchCount,
      step: context.step
    )
    // Longest prefix first, as upstream lists them; loops, not closures: a closure made here is
    // main-actor isolated, and each call of it from the standard library checked the executor.
    for cancelID in ids {
      Self.add(effect, to: &cancellables[CancelKey(cancelID)])
      var length = cancelID.navigationIDPath.path.count
      while length > 0 {
        length -= 1
        Self.add(effect, to: &cancellables[CancelKey(cancelID, length: length)])
      }
    }
    return effect
  }

  /// Records a registered effect's task as running and tells the instrument it started.
  @inlinable
  func start(
    _ effect: RunningEffect,
    task: Task<Void, Never>,
    kind: EffectLaunch.Kind,
    location: SourceLocation?,
    ids: [EffectCancelID]
  ) {
    effect.task = task
    runningEffects.append(effect)
    effect.group.append(task)
    if instrument != nil {
      reportStarted(effect.id, step: effect.step, kind: kind, parent: effect.parent, ids: ids,
        location: location)
    }
  }

  /// Tells the instrument an effect started (not inlined: a bare store never gets here).
  @usableFromInline
  func reportStarted(
    _ id: EffectID, step: Int, kind: EffectLaunch.Kind, parent: EffectID?,
    ids: [EffectCancelID], location: SourceLocation?
  ) {
    instrument?.effectStarted(
      EffectLaunch(
        id: id, step: step, kind: kind, parent: parent, cancelIDs: ids, location: location))
  }

  /// Adds an effect to a key's effects (one look-up: the dictionary's optional subscript).
  @inlinable
  static func add(_ effect: RunningEffect, to effects: inout KeyedEffects?) {
    if effects == nil {
      effects = KeyedEffects(effect)
    } else {
      effects!.add(effect)
    }
  }

  @inlinable
  func startRun(
    _ run: Effect<Action>.Run,
    context: inout EffectContext,
    ids: [EffectCancelID]
  ) -> Task<Void, Never> {
    let effect = register(EffectID.next(), context: &context, ids: ids)
    let location = run.location
    let operation = run.operation
    let scope = effectScope
    // Started on the main actor, as upstream: the operation cannot begin before the send that
    // started it has returned. It reaches the core through its record (see `core(of:)`).
    let task = Task(priority: run.priority) { @MainActor in
      // Made when the task runs, as upstream makes it: an effect cancelled before its task
      // starts (a debounced save or a search typed over) never allocates it.
      let send = Send<Action> { action in
        if effect.isCancelled { return }
        if effect.isCompleted {
          Self.reportSendAfterCompletion(action, location: location)
          return
        }
        _ = Self.core(of: effect)?.send(action, origin: .effect(effect.group, effect.id))
      }
      await perform(operation, send: send, effect: effect, scope: scope)
      Self.core(of: effect)?.effectDidFinish(effect)
    }
    start(effect, task: task, kind: .run, location: location, ids: ids)
    return task
  }

  @inlinable
  func startSequence(
    _ effects: [Effect<Action>],
    context: inout EffectContext,
    ids: [EffectCancelID]
  ) -> Task<Void, Never> {
    let effect = register(EffectID.next(), context: &context, ids: ids)
    let id = effect.id
    let sequenceContext = EffectContext(
      group: effect.group, action: context.action, step: context.step, parent: id)
    let task = Task { @MainActor in
      for part in effects {
        guard !Task.isCancelled, !effect.isCancelled, let core = Self.core(of: effect) else {
          break
        }
        await core.execute(part, context: sequenceContext, ids: ids)
      }
      effect.complete()
      Self.core(of: effect)?.effectDidFinish(effect)
    }
    start(effect, task: task, kind: .concatenation, location: nil, ids: ids)
    return task
  }

  /// The core that started `effect`, while it exists, read through the weak reference its
  /// group shares with the core's other groups: an effect's task captured `[weak self]`
  /// instead, a `swift_weakInit` (and a weak destroy) for every effect. An effect's group is
  /// always its own core's: the core makes a batch's group and hands it only to its own
  /// effects' sends.
  @inlinable
  static func core(of effect: RunningEffect) -> RootCore? {
    guard let owner = effect.group.owner.owner else { return nil }
    return unsafeDowncast(owner, to: RootCore.self)
  }

  /// Runs an effect to its end (inside a concatenation).
  @inlinable
  func execute(
    _ effect: Effect<Action>,
    context: EffectContext,
    ids: [EffectCancelID]
  ) async {
    var context = context
    switch effect.node {
    case let .concatenate(children):
      for child in children {
        guard !Task.isCancelled else { return }
        await execute(child, context: context, ids: ids)
      }
    case let .cancellable(id, cancelInFlight, child):
      if cancelInFlight {
        cancel(id: id, cause: .cancelInFlight(id), step: context.step)
      }
      var inner = ids
      inner.append(id)
      await execute(child, context: context, ids: inner)
    default:
      var tasks: [Task<Void, Never>]? = []
      launch(effect, context: &context, ids: ids, tasks: &tasks)
      for task in tasks ?? [] {
        await task.value
      }
    }
  }

  @inlinable
  func effectDidFinish(_ effect: RunningEffect) {
    guard runningEffects.remove(effect) else { return }
    let id = effect.id
    unregister(effect, from: effect.cancelIDs)
    // A `Send` the operation kept past its end holds the record: not its ids and action.
    effect.letGo()
    if effect.group.isCancelled {
      // `StoreTask.cancel()` cancelled the task before the core heard of it.
      instrument?.effectCancelled(id, cause: .storeTask, step: nil)
    } else {
      instrument?.effectFinished(id)
    }
  }

  /// Takes an effect out of the keys it was registered under: each of `cancelIDs` at each
  /// prefix of its path, but `removed` (a key a cancellation just took out of the table with
  /// its effects, or nil). Inlinable: specialized, the look-ups are the table's own.
  @inlinable
  func unregister(
    _ effect: RunningEffect, from cancelIDs: [EffectCancelID], removed: CancelKey? = nil
  ) {
    for cancelID in cancelIDs {
      unregister(effect, from: CancelKey(cancelID), removed: removed)
      var length = cancelID.navigationIDPath.path.count
      while length > 0 {
        length -= 1
        unregister(effect, from: CancelKey(cancelID, length: length), removed: removed)
      }
    }
  }

  /// Takes an effect out of one key's effects (one look-up: hashing a key is most of the cost).
  /// A key made from the same id as `removed` (the table kept the key of the effect first
  /// registered under it) is known to be gone: no look-up.
  @inlinable
  func unregister(_ effect: RunningEffect, from key: CancelKey, removed: CancelKey?) {
    if let removed, removed.parts === key.parts, removed.length == key.length { return }
    guard let index = cancellables.index(forKey: key) else { return }
    // One access to the key's list (each went through the dictionary's `values` view).
    if cancellables.values[index].remove(effect) {
      cancellables.remove(at: index)
    }
  }

  // MARK: Cancellation

  @inlinable
  package func cancelNow(_ id: EffectCancelID, reason: EffectCancelReason) {
    cancel(id: id, cause: Self.cause(of: reason, id: id), step: currentStep)
  }

  /// Lets the reducing context reach `cancelNow` (a `.cancel` or a teardown returned while a
  /// reducer runs) through a closure; made where the reducer's type is known (`Store.init`),
  /// it runs the specialized bookkeeping: the generic code looks up metadata for every generic
  /// type it touches (~7,000 instructions a cancellation more). The core owns its hooks, so
  /// the closure does not retain it.
  @inlinable
  package func specializeHooks() {
    hooks.cancelNow = { [unowned(unsafe) self] id, reason in
      self.cancelNow(id, reason: reason)
    }
  }

  @inlinable
  static func cause(of reason: EffectCancelReason, id: EffectCancelID)
    -> EffectCancelCause
  {
    switch reason {
    case .cancelEffect: .cancel(id)
    case .teardown(let kind): .teardown(kind)
    }
  }

  /// Cancels the `withTaskCancellation` operations, then the effects, registered under `id`.
  @inlinable
  func cancel(id: EffectCancelID, cause: EffectCancelCause, step: Int?) {
    effectScope.cancelOperations(id)
    cancelEffects(id: id, cause: cause, step: step)
  }

  /// Cancels the effects registered under `id` (not the `withTaskCancellation` operations:
  /// `Task.cancel(id:)` cancels those itself, before it gets here).
  @inlinable
  func cancelEffects(id: EffectCancelID, cause: EffectCancelCause, step: Int?) {
    guard let index = cancellables.index(forKey: CancelKey(id)) else { return }
    // The key as the table kept it: made from the id of the first effect filed under it.
    let (key, effects) = cancellables.remove(at: index)
    if effects.rest.isEmpty {
      // The common case, one effect: no list of endings to build.
      let effect = effects.first
      guard runningEffects.remove(effect) else { return }
      unregister(effect, from: effect.cancelIDs, removed: key)
      end(effect, cause: cause, step: step)
      return
    }
    var ended: [RunningEffect] = []
    for effect in effects.all {
      guard runningEffects.remove(effect) else { continue }
      unregister(effect, from: effect.cancelIDs, removed: key)
      ended.append(effect)
    }
    end(ended, cause: cause, step: step)
  }

  /// Cancels the tasks of effects taken out of `runningEffects` and tells the instrument: an
  /// effect whose operation had already returned finished, the others were cancelled.
  @usableFromInline
  func end(_ effects: [RunningEffect], cause: EffectCancelCause, step: Int?) {
    if effects.count == 1 {
      // The common case, one effect: no lists to build and sort.
      end(effects[0], cause: cause, step: step)
      return
    }
    var cancelled: [(launch: Int, id: EffectID)] = []
    var finished: [(launch: Int, id: EffectID)] = []
    for effect in effects {
      let wasRunning = effect.cancel()
      // Nobody to tell which ones finished without an instrument: nothing kept, nothing sorted.
      if instrument != nil {
        // A task cancelled through `StoreTask.cancel()` off the main actor may have returned
        // on that cancellation before the core heard of it.
        if wasRunning || (cause == .storeTask && effect.group.isCancelled) {
          cancelled.append((effect.launch, effect.id))
        } else {
          finished.append((effect.launch, effect.id))
        }
      }
      effect.task?.cancel()
      effect.letGo()
    }
    guard let instrument else { return }
    // Mostly one effect: sorting copies only when there are several.
    if finished.count > 1 { finished.sort { $0.launch < $1.launch } }
    for (_, id) in finished {
      instrument.effectFinished(id)
    }
    if cancelled.count > 1 { cancelled.sort { $0.launch < $1.launch } }
    if !cancelled.isEmpty {
      instrument.effectsCancelled(cancelled.map(\.id), cause: cause, step: step)
    }
  }

  /// Cancels one effect taken out of `runningEffects` and tells the instrument whether it
  /// finished (its operation had returned) or was cancelled.
  @inlinable
  func end(_ effect: RunningEffect, cause: EffectCancelCause, step: Int?) {
    let wasRunning = effect.cancel()
    effect.task?.cancel()
    effect.letGo()
    guard let instrument else { return }
    // A task cancelled through `StoreTask.cancel()` off the main actor may have returned on
    // that cancellation before the core heard of it.
    if wasRunning || (cause == .storeTask && effect.group.isCancelled) {
      instrument.effectCancelled(effect.id, cause: cause, step: step)
    } else {
      instrument.effectFinished(effect.id)
    }
  }

  /// Cancels every running effect (a test store skipping the effects in flight).
  package func cancelAllEffects() {
    cancelEverything(cause: .testSkip)
  }

  private func cancelEverything(cause: EffectCancelCause) {
    let all = runningEffects.all
    runningEffects.removeAll()
    cancellables.removeAll()
    end(all, cause: cause, step: nil)
  }

  @usableFromInline
  package func cancelGroup(_ group: EffectTaskGroup) {
    end(takeEffects { $0.group === group }, cause: .storeTask, step: nil)
  }

  /// Takes the running effects `shouldTake` picks out of `runningEffects` and the cancel
  /// table, as `end` takes them.
  func takeEffects(where shouldTake: (RunningEffect) -> Bool) -> [RunningEffect] {
    var taken: [RunningEffect] = []
    for effect in runningEffects.all where shouldTake(effect) {
      taken.append(effect)
      runningEffects.remove(effect)
      unregister(effect, from: effect.cancelIDs)
    }
    return taken
  }

  // MARK: Dependency reads

  @usableFromInline
  package func dependencyRead(_ read: DependencyValueRead) {
    instrument?.dependencyRead(read)
  }

  @usableFromInline
  package func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type)
  where C.Duration == Duration {
    guard let instrument else { return }
    instrument.dependencyRead(.clockNow(clockOrigins.offset(of: instant, on: clock)))
  }

  @usableFromInline
  static func reportSendAfterCompletion(_ action: Action, location: SourceLocation?) {
    let origin = location.map { " returned from \"\($0)\"" } ?? ""
    let message = """
      An action was sent from a completed effect\(origin):

        Action:
          \(describeCase(action))

      The action was ignored. Do not keep the "send" of an "Effect.run" after its operation \
      returns (for example in an unstructured "Task").
      """
    if let location {
      reportIssue(message, location: location)
    } else {
      reportIssue(message)
    }
  }
}

/// Runs a `.run` operation off the main actor and marks its effect completed the moment it
/// returns, not when the main actor gets to the bookkeeping.
@inlinable
func perform<Action: Sendable>(
  _ operation: @Sendable (Send<Action>) async -> Void,
  send: Send<Action>,
  effect: RunningEffect,
  scope: EffectScope
) async {
  // In the store's scope, so that `Task.cancel(id:)` and throttles inside it reach the store.
  await scope.run { await operation(send) }
  effect.complete()
}

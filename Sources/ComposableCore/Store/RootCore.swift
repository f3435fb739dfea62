import Synchronization

/// The core of a root store: runs the reducer, buffers actions, starts, tracks and cancels
/// effects.
///
/// `send` handles one batch: the sent action, then every action buffered meanwhile (actions
/// from synchronous `.send` effects, breadth-first, and re-entrant sends), first in first out.
/// Observers are notified once per batch.
///
/// The sending path is `@inlinable` so that it is specialized for the concrete reducer in the
/// module that creates the store: unspecialized generic code pays a metadata lookup for every
/// generic type it touches, which made a bare send cost ~1 µs instead of tens of nanoseconds.
@MainActor
@usableFromInline
package final class RootCore<Root: Reducer>: Core {
  @usableFromInline package typealias State = Root.State
  @usableFromInline package typealias Action = Root.Action

  @usableFromInline let storage: StateStorage<State>
  @usableFromInline let reducer: Root
  @usableFromInline let dependencies: DependencyValues
  @usableFromInline let needsDependencies: Bool
  // Only touched on the main actor and never across a call that could touch them again
  // (the reducer mutates the state through `storage`, not through `self`): the dynamic
  // exclusivity checks would cost more than the rest of a bare send.
  @exclusivity(unchecked) @usableFromInline var bufferedActions: [Action] = []
  @exclusivity(unchecked) @usableFromInline var isSending = false
  /// The position in `bufferedActions` of the action being reduced.
  @exclusivity(unchecked) @usableFromInline var processingIndex = 0
  private var runningEffects: [EffectID: RunningEffect] = [:]
  private var cancellables: [EffectCancelID: Set<EffectID>] = [:]
  private var cancellationObserver: ((EffectCancellation) -> Void)?
  @usableFromInline package let observation = StoreObservation()
  /// What this store's effects reach of it besides `send` (cancellation by id, throttles).
  package let effectScope = EffectScope()

  /// A root core with the dependencies in force (captured now, applied to every batch).
  @usableFromInline
  package init(initialState: State, reducer: Root, dependencies: DependencyValues) {
    storage = StateStorage(initialState)
    self.reducer = reducer
    self.dependencies = dependencies
    needsDependencies = !dependencies.isDefault
    if let observing = reducer as? any EffectCancellationObserving {
      cancellationObserver = { observing.effectsCancelled($0) }
    }
    effectScope.connect { [weak self] id in
      self?.cancelEffects(id: id, reason: .cancelEffect)
    }
  }

  isolated deinit {
    var ids: [EffectCancelID] = []
    var seen = Set<EffectCancelID>()
    for (_, effect) in runningEffects {
      effect.flag.cancel()
      effect.task.cancel()
      for id in effect.cancelIDs where seen.insert(id).inserted {
        ids.append(id)
      }
    }
    if !runningEffects.isEmpty {
      cancellationObserver?(
        EffectCancellation(
          ids: ids, reason: .storeDeinit, effectIDs: Array(runningEffects.keys)))
    }
  }

  @inlinable
  package var state: State {
    storage.pointer.pointee
  }

  /// Adds an observer of cancellations (besides a root reducer that observes them).
  package func observeCancellations(_ observer: @escaping @MainActor (EffectCancellation) -> Void)
  {
    if let existing = cancellationObserver {
      cancellationObserver = {
        existing($0)
        observer($0)
      }
    } else {
      cancellationObserver = observer
    }
  }

  /// The effects running now, each with the action whose reducer returned it.
  package var effectsInFlight: [(id: EffectID, action: Action)] {
    runningEffects.compactMap { id, effect in
      guard effect.parent == nil, !effect.flag.isCompleted, let action = effect.action else {
        return nil
      }
      return (id, action)
    }
  }

  /// The number of running effect tasks, nested ones included.
  package var runningEffectCount: Int { runningEffects.count }

  /// The number of effect tasks that have not returned and wait on no other effect task: a
  /// concatenation waiting for its current part is not counted, the part is. When each of them
  /// sleeps on a test clock, nothing happens until the clock moves.
  package var pendingOperationCount: Int {
    var waiting = Set<EffectID>()
    for effect in runningEffects.values where !effect.flag.isCompleted {
      if let parent = effect.parent { waiting.insert(parent) }
    }
    return runningEffects.count { id, effect in
      !waiting.contains(id) && !effect.flag.isCompleted
    }
  }

  // MARK: Sending

  @inlinable
  package func send(_ action: Action, origin: SendOrigin) -> StoreTask {
    if isSending {
      if case .store = origin {
        reportReentrantSend(action)
      }
      bufferedActions.append(action)
      return StoreTask(group: nil)
    }
    let group: EffectTaskGroup?
    let fromEffect: Bool
    switch origin {
    case .store: (group, fromEffect) = (nil, false)
    case let .effect(parentGroup): (group, fromEffect) = (parentGroup, true)
    }
    bufferedActions.append(action)
    // An effect's task carries the dependencies of the reducer that created it (its navigation
    // path among them): the reducers must not run with those.
    if needsDependencies || fromEffect {
      return DependencyValues.$current.withValue(dependencies) {
        runBatch(group: group)
      }
    }
    return runBatch(group: group)
  }

  @inlinable
  func runBatch(group initialGroup: EffectTaskGroup?) -> StoreTask {
    isSending = true
    var group = initialGroup
    var index = 0
    while index < bufferedActions.count {
      processingIndex = index
      let action = bufferedActions[index]
      index += 1
      let effect = reducer.reduce(into: &storage.pointer.pointee, action: action)
      if case .none = effect.node { continue }
      group = launchRoot(effect, action: action, group: group)
    }
    if bufferedActions.count == 1 {
      bufferedActions.removeLast()
    } else {
      bufferedActions.removeAll(keepingCapacity: true)
    }
    isSending = false
    if observation.isObserved {
      observation.didFinishBatch()
    }
    return StoreTask(group: group)
  }

  /// Starts an effect a reducer returned; returns the task group of the batch.
  @usableFromInline
  func launchRoot(
    _ effect: Effect<Action>,
    action: Action,
    group: EffectTaskGroup?
  ) -> EffectTaskGroup? {
    var context = EffectContext(group: group, action: action)
    _ = launch(effect, context: &context, ids: [], parent: nil)
    return context.group
  }

  @usableFromInline
  func reportReentrantSend(_ action: Action) {
    let current =
      processingIndex < bufferedActions.count
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
  struct EffectContext {
    var group: EffectTaskGroup?
    var action: Action?

    /// The group tasks join; created on the first task of a batch.
    mutating func taskGroup(core: RootCore) -> EffectTaskGroup {
      if let group { return group }
      let group = EffectTaskGroup { [weak core] group in
        core?.cancelGroup(group)
      }
      self.group = group
      return group
    }
  }

  struct RunningEffect {
    let task: Task<Void, Never>
    let flag: EffectFlag
    let cancelIDs: [EffectCancelID]
    let action: Action?
    let parent: EffectID?
    let group: EffectTaskGroup
  }

  /// Starts an effect; returns the tasks it started (awaited by concatenation).
  private func launch(
    _ effect: Effect<Action>,
    context: inout EffectContext,
    ids: [EffectCancelID],
    parent: EffectID?
  ) -> [Task<Void, Never>] {
    switch effect.node {
    case .none:
      return []
    case let .send(action):
      _ = send(action, origin: .effect(context.group))
      return []
    case let .run(run):
      return [startRun(run, context: &context, ids: ids, parent: parent)]
    case let .merge(children):
      var tasks: [Task<Void, Never>] = []
      for child in children {
        tasks += launch(child, context: &context, ids: ids, parent: parent)
      }
      return tasks
    case let .concatenate(children):
      var remaining = children[...]
      var tasks: [Task<Void, Never>] = []
      // Leading synchronous parts happen now, like the first element of a concatenation
      // of synchronous publishers.
      while let first = remaining.first, first.isSynchronous {
        tasks += launch(first, context: &context, ids: ids, parent: parent)
        remaining = remaining.dropFirst()
      }
      if !remaining.isEmpty {
        tasks.append(startSequence(Array(remaining), context: &context, ids: ids, parent: parent))
      }
      return tasks
    case let .cancellable(id, cancelInFlight, child):
      if cancelInFlight {
        cancel(id: id, reason: .cancelInFlight)
      }
      return launch(child, context: &context, ids: ids + [id], parent: parent)
    case let .cancel(id, reason):
      switch reason {
      case .cancelEffect: cancel(id: id, reason: .cancelEffect)
      case let .teardown(kind): cancel(id: id, reason: .teardown(kind))
      }
      return []
    }
  }

  private func register(
    _ task: Task<Void, Never>,
    id: EffectID,
    flag: EffectFlag,
    context: inout EffectContext,
    ids: [EffectCancelID],
    parent: EffectID?
  ) {
    let group = context.taskGroup(core: self)
    runningEffects[id] = RunningEffect(
      task: task,
      flag: flag,
      cancelIDs: ids,
      action: context.action,
      parent: parent,
      group: group
    )
    for cancelID in ids {
      cancellables[cancelID, default: []].insert(id)
    }
    group.append(task)
  }

  private func startRun(
    _ run: Effect<Action>.Run,
    context: inout EffectContext,
    ids: [EffectCancelID],
    parent: EffectID?
  ) -> Task<Void, Never> {
    let id = EffectID.next()
    let flag = EffectFlag()
    let group = context.taskGroup(core: self)
    let location = run.location
    let send = Send<Action> { [weak self] action in
      if flag.isCancelled { return }
      if flag.isCompleted {
        Self.reportSendAfterCompletion(action, location: location)
        return
      }
      _ = self?.send(action, origin: .effect(group))
    }
    let operation = run.operation
    let task = startEffectTask(
      priority: run.priority, operation: operation, send: send, flag: flag,
      scope: effectScope
    ) { [weak self] in
      self?.effectDidFinish(id)
    }
    register(task, id: id, flag: flag, context: &context, ids: ids, parent: parent)
    return task
  }

  private func startSequence(
    _ effects: [Effect<Action>],
    context: inout EffectContext,
    ids: [EffectCancelID],
    parent: EffectID?
  ) -> Task<Void, Never> {
    let id = EffectID.next()
    let flag = EffectFlag()
    let sequenceContext = EffectContext(
      group: context.taskGroup(core: self), action: context.action)
    let task = Task { @MainActor [weak self] in
      for effect in effects {
        guard !Task.isCancelled, !flag.isCancelled, let core = self else { break }
        await core.execute(effect, context: sequenceContext, ids: ids, parent: id)
      }
      flag.complete()
      self?.effectDidFinish(id)
    }
    register(task, id: id, flag: flag, context: &context, ids: ids, parent: parent)
    return task
  }

  /// Runs an effect to its end (inside a concatenation).
  private func execute(
    _ effect: Effect<Action>,
    context: EffectContext,
    ids: [EffectCancelID],
    parent: EffectID
  ) async {
    var context = context
    switch effect.node {
    case let .concatenate(children):
      for child in children {
        guard !Task.isCancelled else { return }
        await execute(child, context: context, ids: ids, parent: parent)
      }
    case let .cancellable(id, cancelInFlight, child):
      if cancelInFlight {
        cancel(id: id, reason: .cancelInFlight)
      }
      await execute(child, context: context, ids: ids + [id], parent: parent)
    default:
      let tasks = launch(effect, context: &context, ids: ids, parent: parent)
      for task in tasks {
        await task.value
      }
    }
  }

  private func effectDidFinish(_ id: EffectID) {
    guard let effect = runningEffects.removeValue(forKey: id) else { return }
    unregister(id, from: effect.cancelIDs)
  }

  private func unregister(_ id: EffectID, from cancelIDs: [EffectCancelID]) {
    for cancelID in cancelIDs {
      cancellables[cancelID]?.remove(id)
      if cancellables[cancelID]?.isEmpty == true {
        cancellables[cancelID] = nil
      }
    }
  }

  // MARK: Cancellation

  private func cancel(id: EffectCancelID, reason: EffectCancellation.Reason) {
    effectScope.cancelOperations(id)
    cancelEffects(id: id, reason: reason)
  }

  /// Cancels the effects registered under `id` (not the `withTaskCancellation` operations:
  /// `Task.cancel(id:)` cancels those itself, before it gets here).
  private func cancelEffects(id: EffectCancelID, reason: EffectCancellation.Reason) {
    let effectIDs = cancellables.removeValue(forKey: id) ?? []
    var cancelled: [EffectID] = []
    for effectID in effectIDs {
      guard let effect = runningEffects.removeValue(forKey: effectID) else { continue }
      effect.flag.cancel()
      effect.task.cancel()
      unregister(effectID, from: effect.cancelIDs)
      cancelled.append(effectID)
    }
    cancellationObserver?(EffectCancellation(ids: [id], reason: reason, effectIDs: cancelled))
  }

  /// Cancels every running effect (a test store skipping the effects in flight).
  package func cancelAllEffects() {
    var ids: [EffectCancelID] = []
    var seen = Set<EffectCancelID>()
    for (_, effect) in runningEffects {
      effect.flag.cancel()
      effect.task.cancel()
      for id in effect.cancelIDs where seen.insert(id).inserted {
        ids.append(id)
      }
    }
    let cancelled = Array(runningEffects.keys)
    runningEffects.removeAll()
    cancellables.removeAll()
    cancellationObserver?(
      EffectCancellation(ids: ids, reason: .skippedInFlight, effectIDs: cancelled))
  }

  private func cancelGroup(_ group: EffectTaskGroup) {
    var ids: [EffectCancelID] = []
    var seen = Set<EffectCancelID>()
    var cancelled: [EffectID] = []
    for (effectID, effect) in runningEffects where effect.group === group {
      effect.flag.cancel()
      effect.task.cancel()
      cancelled.append(effectID)
      for id in effect.cancelIDs where seen.insert(id).inserted {
        ids.append(id)
      }
    }
    for effectID in cancelled {
      if let effect = runningEffects.removeValue(forKey: effectID) {
        unregister(effectID, from: effect.cancelIDs)
      }
    }
    cancellationObserver?(
      EffectCancellation(ids: ids, reason: .storeTaskCancel, effectIDs: cancelled))
  }

  private static func reportSendAfterCompletion(_ action: Action, location: SourceLocation?) {
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

/// Creates the task of a `.run` leaf from a nonisolated context, so it starts off the main
/// actor (where the operation runs anyway) and comes back once, for the bookkeeping: one
/// main-actor hop per effect instead of two. Task-local values (dependencies, issue
/// collection) are inherited as usual.
private func startEffectTask<Action: Sendable>(
  priority: TaskPriority?,
  operation: @escaping @Sendable (Send<Action>) async -> Void,
  send: Send<Action>,
  flag: EffectFlag,
  scope: EffectScope,
  didFinish: @escaping @MainActor @Sendable () -> Void
) -> Task<Void, Never> {
  Task(priority: priority) {
    // Marks the effect completed the moment the operation returns, not when the main actor
    // gets to the bookkeeping.
    await EffectScope.$current.withValue(scope) { await operation(send) }
    flag.complete()
    await didFinish()
  }
}

/// The life of one effect task: running, cancelled, or completed.
final class EffectFlag: Sendable {
  private let state = Atomic<UInt8>(0)

  var isCancelled: Bool { state.load(ordering: .acquiring) == 1 }
  var isCompleted: Bool { state.load(ordering: .acquiring) == 2 }

  func cancel() {
    _ = state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
  }

  func complete() {
    _ = state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing)
  }
}

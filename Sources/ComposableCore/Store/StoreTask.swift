import Locking

/// A handle on the effects that one `send` started (and on the effects those effects' actions
/// started in turn).
///
/// ```swift
/// let task = store.send(.startTimer)
/// task.cancel()          // cancels them
/// await task.finish()    // waits until they are all done
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline let group: EffectTaskGroup?

  @usableFromInline
  init(group: EffectTaskGroup?) {
    self.group = group
  }

  /// Cancels the effects. Their later sends are ignored.
  public func cancel(isolation: isolated (any Actor)? = #isolation) {
    guard let group else { return }
    if let isolation, isolation === MainActor.shared {
      // The core marks the effects cancelled before their tasks are, so that none is taken
      // for finished because its operation returned on cancellation first.
      MainActor.assumeIsolated { group.cancelOnMainActor() }
    } else {
      group.cancelTasks()
      Task { @MainActor in group.notifyCancelled() }
    }
  }

  /// Waits for the effects to finish (cancelled effects finish as soon as they notice).
  public func finish() async {
    guard let group else { return }
    var index = 0
    while let task = group.task(at: index) {
      await task.value
      index += 1
    }
  }

  /// Whether `cancel()` was called, or the send started no asynchronous work (as upstream: a
  /// task with nothing to run is as good as cancelled).
  ///
  /// ```swift
  /// store.send(.plus).isCancelled      // true: nothing asynchronous
  /// store.send(.load).isCancelled      // false until cancel()
  /// ```
  public var isCancelled: Bool {
    group?.isCancelled ?? true
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}

/// The tasks started for one external send and its consequences.
@usableFromInline
package final class EffectTaskGroup: Sendable {
  private struct Storage {
    /// The first task, kept inline: most groups hold one task, and an array allocated for it
    /// was a third of what appending cost.
    var first: Task<Void, Never>?
    var rest: [Task<Void, Never>] = []
    var isCancelled = false

    func task(at index: Int) -> Task<Void, Never>? {
      if index == 0 { return first }
      return index - 1 < rest.count ? rest[index - 1] : nil
    }

    var tasks: [Task<Void, Never>] {
      guard let first else { return [] }
      return [first] + rest
    }
  }

  private let storage = Lock(Storage())
  /// The core that marks the group's effects cancelled and reports it (main actor), through
  /// the weak reference the core made once for all its groups (a `StoreTask` may outlive its
  /// store). A weak reference of the group's own cost a `swift_weakInit` of the existential
  /// and a release of the core through its side table for every batch that starts an effect.
  @usableFromInline let owner: EffectTaskGroupOwnerReference

  @usableFromInline
  init(owner: EffectTaskGroupOwnerReference) {
    self.owner = owner
  }

  @usableFromInline
  func append(_ task: Task<Void, Never>) {
    let cancelled = storage.withLock { storage in
      if storage.first == nil {
        storage.first = task
      } else {
        storage.rest.append(task)
      }
      return storage.isCancelled
    }
    if cancelled {
      task.cancel()
    }
  }

  func task(at index: Int) -> Task<Void, Never>? {
    storage.withLock { $0.task(at: index) }
  }

  @usableFromInline
  var isCancelled: Bool {
    storage.withLock { $0.isCancelled }
  }

  func cancelTasks() {
    let tasks = storage.withLock { storage in
      storage.isCancelled = true
      return storage.tasks
    }
    for task in tasks {
      task.cancel()
    }
  }

  @MainActor
  func notifyCancelled() {
    owner.owner?.cancelGroup(self)
  }

  /// Cancels from the main actor: marked cancelled, the core cancels the effects it knows,
  /// then any other task of the group is cancelled.
  @MainActor
  func cancelOnMainActor() {
    storage.withLock { $0.isCancelled = true }
    owner.owner?.cancelGroup(self)
    cancelTasks()
  }
}

/// What a group's cancellation reaches: the root core that started its tasks.
@MainActor
@usableFromInline
package protocol EffectTaskGroupOwner: AnyObject, Sendable {
  /// Marks the group's effects cancelled and reports them.
  func cancelGroup(_ group: EffectTaskGroup)
}

/// A weak reference to the core that owns a store's effect task groups, made once per core and
/// shared by all its groups (and, through their groups, by its effects' tasks).
@usableFromInline
package final class EffectTaskGroupOwnerReference: Sendable {
  /// Set once, when the core is made; read when a group is cancelled and by the core's effect
  /// tasks (all on the main actor).
  @MainActor @usableFromInline weak var owner: (any EffectTaskGroupOwner)?

  @usableFromInline
  init() {}
}

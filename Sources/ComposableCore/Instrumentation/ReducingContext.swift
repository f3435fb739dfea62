import Locking
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which root core is reducing on which thread right now, for the code a reducer calls:
/// `Effect.cancel(id:)` and child teardowns cancel through it while the reducer runs, and the
/// dependency generators report the values they make through it.
///
/// Root cores run on the main actor, one batch at a time (a store sent to from inside
/// another's reducer nests), so the context is one owner thread and two slots that only the
/// owner reads and writes, set and restored by each batch. The owner is the thread the batch
/// runs on, not "the main thread": on Linux the main actor's jobs may run on a thread other
/// than the process's first. Code on any other thread (an effect, a test calling
/// `reducer.reduce` directly) sees no context. Nothing here is a task-local: a batch costs a
/// few stores, not a task-local push.
///
/// ```swift
/// // Inside a reducer run by a store:
/// ReducingContext.isActiveOnThisThread  // true
/// // In an effect's operation, or in a test calling reducer.reduce directly:
/// ReducingContext.isActiveOnThisThread  // false
/// ```
///
/// Typed replay runs a recorded reducer with no store, on a thread of its own, and still needs
/// to hear every dependency value the reducer reads (whatever overrides sit inside the
/// reducer): `listening(to:_:)` makes that thread a reading context whose reads go to a
/// `DependencyReadListener`, in a second slot that only the listening thread reads, so a store
/// reducing on the main actor at the same time keeps its own slot.
@usableFromInline
package enum ReducingContext {
  /// The one context of the process. Each root core keeps a reference to it, so a batch reaches
  /// it without a global's lazy-initialization check.
  @usableFromInline static let shared = ReducingContextState()

  /// The core reducing on this thread, if a batch runs on it.
  static func current() -> ReducingHooks? {
    let context = shared
    let owner = context.owner.load(ordering: .relaxed)
    let listening = context.listeningThread.load(ordering: .relaxed)
    // Nothing reduces or listens (an effect's read, off a batch): no thread id needed.
    guard owner != 0 || listening != 0 else { return nil }
    let thread = currentThreadID()
    if owner != 0, owner == thread { return context.hooks }
    guard listening != 0, listening == thread else { return nil }
    return context.listeningHooks
  }

  /// Runs `body` on this thread as a reducing context that tells `listener` every dependency
  /// value read in it (the outermost generator call of each, as a store's instrument is told).
  /// One thread listens at a time: a second one waits until the first is done.
  ///
  /// ```swift
  /// ReducingContext.listening(to: checker) {
  ///   _ = reducer.reduce(into: &state, action: action)  // checker hears uuid(), date.now …
  /// }
  /// ```
  package static func listening<R>(to listener: some DependencyReadListener, _ body: () -> R)
    -> R
  {
    let context = shared
    let hooks = ReducingHooks()
    hooks.listener = listener
    hooks.isReading = true
    return context.listeningLock.withLock { _ in
      context.listeningHooks = hooks
      context.listeningThread.store(currentThreadID(), ordering: .relaxed)
      defer {
        context.listeningThread.store(0, ordering: .relaxed)
        context.listeningHooks = nil
      }
      return body()
    }
  }

  /// Whether a store's batch is running on this thread.
  package static var isActiveOnThisThread: Bool {
    current() != nil
  }

  /// Performs a cancellation a reducer asked for, on the core reducing on this thread;
  /// returns whether there was one (else the core that launches the effect performs it).
  static func cancelNow(_ id: EffectCancelID, reason: EffectCancelReason) -> Bool {
    guard let cancel = current()?.cancelNow else { return false }
    MainActor.assumeIsolated { cancel(id, reason) }
    return true
  }

  /// Makes a value with `produce` and, on the thread of an instrumented core's reducer and as
  /// the outermost generator call, reports it.
  static func read<Value: Sendable>(
    _ produce: () -> Value, report: (Value) -> DependencyValueRead
  ) -> Value {
    guard let hooks = current(), hooks.isReading else { return produce() }
    hooks.readDepth += 1
    let value = produce()
    hooks.readDepth -= 1
    guard hooks.readDepth == 0 else { return value }
    if let core = hooks.core {
      let read = report(value)
      MainActor.assumeIsolated { core.dependencyRead(read) }
    } else if let listener = hooks.listener {
      listener.dependencyRead(report(value))
    }
    return value
  }

  /// Reports a clock's `now`, on the thread of an instrumented core's reducer.
  static func readClock<C: Clock>(_ clock: C) -> C.Instant where C.Duration == Duration {
    guard let hooks = current(), hooks.isReading else { return clock.now }
    hooks.readDepth += 1
    let now = clock.now
    hooks.readDepth -= 1
    guard hooks.readDepth == 0 else { return now }
    if let core = hooks.core {
      MainActor.assumeIsolated { core.clockRead(now, of: C.self) }
    } else if let listener = hooks.listener {
      listener.clockRead(now, of: C.self)
    }
    return now
  }

  /// The key log of the instrumented core whose reducer runs on this thread now: an effect it
  /// returns carries it in its dependencies.
  static var keyLog: DependencyKeyLog? {
    guard let hooks = current(), hooks.isReading else { return nil }
    return hooks.keyLog
  }

  /// Notes `key` in the log of the instrumented core whose reducer runs on this thread now.
  /// The store installs no dependencies of its own for this: a task-local value per send cost
  /// more than the rest of the Recorder's capture.
  static func noteKey<Key: TestDependencyKey>(_ key: Key.Type) {
    guard let hooks = current(), hooks.isReading else { return }
    let id = ObjectIdentifier(key)
    // Checked before the log is reached: a key read again costs a scan, not a retain.
    guard !hooks.notedKeys.contains(id), let log = hooks.keyLog else { return }
    hooks.notedKeys.append(id)
    log.note(key)
  }

  /// `clock` as the clock dependency gives it now: wrapped so that its `now` reads are
  /// reported when an instrumented core's reducer reads it on this thread (`reporting`), as it
  /// is otherwise. The context is looked up once for both.
  static func reportingIfReading(_ clock: any Clock<Duration>) -> any Clock<Duration> {
    guard let hooks = current(), hooks.isReading else { return clock }
    return reporting(clock, hooks: hooks)
  }
}

/// The slots of the reducing context: the thread a batch runs on, and the core (its hooks) that
/// only that thread reads and writes.
@usableFromInline
package final class ReducingContextState: @unchecked Sendable {
  /// The thread a batch is running on, 0 when none is.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// The core whose batch is running (owner thread only).
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var hooks: ReducingHooks?
  /// The thread that listens to a reducer's reads without a store (typed replay), 0 when none.
  let listeningThread = Atomic<UInt>(0)
  /// The listening thread's hooks (that thread only).
  @exclusivity(unchecked) var listeningHooks: ReducingHooks?
  /// Lets one thread listen at a time.
  let listeningLock = Lock(())

  init() {}

  /// What a batch restores when it ends.
  @usableFromInline
  struct Outer {
    @usableFromInline let owner: UInt
    @usableFromInline unowned(unsafe) let hooks: ReducingHooks?

    @inlinable
    init(owner: UInt, hooks: ReducingHooks?) {
      self.owner = owner
      self.hooks = hooks
    }
  }

  /// Makes `hooks`' core the reducing core of this thread; returns what was before.
  @inlinable
  func enter(_ hooks: ReducingHooks) -> Outer {
    let outer = Outer(owner: owner.load(ordering: .relaxed), hooks: self.hooks)
    owner.store(currentThreadID(), ordering: .relaxed)
    self.hooks = hooks
    return outer
  }

  /// Ends a batch: the context is what it was before `enter`.
  @inlinable
  func leave(_ outer: Outer) {
    hooks = outer.hooks
    owner.store(outer.owner, ordering: .relaxed)
  }
}

/// What the reducing context holds of a root core: the core, and whether its instrument
/// listens to the reducer running now. One per core, made with it.
@usableFromInline
package final class ReducingHooks {
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var core: (any ReducingCore)?
  /// The core's `cancelNow`, specialized for its reducer where the store was made (see
  /// `RootCore.specializeHooks`); `nil` when no core runs the reducer (typed replay).
  @exclusivity(unchecked) @usableFromInline
  var cancelNow: (@MainActor (EffectCancelID, EffectCancelReason) -> Void)?
  /// Whether an instrumented core's reducer is running (dependency reads are reported).
  @exclusivity(unchecked) @usableFromInline var isReading = false
  /// Where reads go when no core runs the reducer (typed replay).
  @exclusivity(unchecked) var listener: (any DependencyReadListener)?
  /// How deep in generator calls the reading thread is: a generator built on another reports
  /// once, as the outermost call.
  @exclusivity(unchecked) var readDepth = 0
  /// The instrumented core's log of the dependency keys its features read.
  @exclusivity(unchecked) var keyLog: DependencyKeyLog?
  /// The keys this core's reducers already noted (read on its thread only, so a key read
  /// again skips the log's lock).
  @exclusivity(unchecked) var notedKeys: [ObjectIdentifier] = []
  /// The type and the bytes of the last clock a reducer read, and its reporting wrapper (see
  /// `reporting`): three properties, so a read compares them in place without copying them.
  @exclusivity(unchecked) var reportingClockType: ObjectIdentifier?
  @exclusivity(unchecked) var reportingClockBytes: [UInt8] = []
  @exclusivity(unchecked) var reportingClock: (any Clock<Duration>)?

  @usableFromInline init() {}
}

/// The calling thread's id (`pthread_self`).
@inlinable
func currentThreadID() -> UInt {
  #if canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: pthread_self())
  #endif
}

/// What typed replay hears of a reducer it runs without a store: each dependency value read,
/// on the reducer's thread (see `ReducingContext.listening(to:_:)`).
package protocol DependencyReadListener: AnyObject {
  /// A generator made a value.
  func dependencyRead(_ read: DependencyValueRead)
  /// The reducer read a clock's `now`.
  func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type) where C.Duration == Duration
}

/// What the reducing context reaches in a root core.
@MainActor
@usableFromInline
package protocol ReducingCore: AnyObject {
  /// A generator made a value during the step being reduced.
  func dependencyRead(_ read: DependencyValueRead)
  /// The step being reduced read a clock's `now`.
  func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type) where C.Duration == Duration
}

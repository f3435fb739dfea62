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
@usableFromInline
package enum ReducingContext {
  /// The thread a batch is running on, 0 when none is.
  private static let owner = Atomic<UInt>(0)

  /// The core whose batch is running (owner thread only).
  nonisolated(unsafe) static unowned(unsafe) var core: (any ReducingCore)?
  /// The instrumented core whose reducer is running (owner thread only): dependency reads go
  /// to it.
  @usableFromInline nonisolated(unsafe) static unowned(unsafe) var reader: (any ReducingCore)?
  /// How deep in generator calls the reading thread is: a generator built on another reports
  /// once, as the outermost call.
  nonisolated(unsafe) static var readDepth = 0

  /// What a batch restores when it ends.
  @usableFromInline
  struct Outer {
    let owner: UInt
    unowned(unsafe) let core: (any ReducingCore)?
    unowned(unsafe) let reader: (any ReducingCore)?
  }

  /// Makes `core` the reducing core of this thread, with no reader until its reducer runs;
  /// returns what was before.
  @usableFromInline
  static func enter(_ core: (any ReducingCore)?) -> Outer {
    let outer = Outer(owner: owner.load(ordering: .relaxed), core: self.core, reader: reader)
    owner.store(currentThread(), ordering: .relaxed)
    self.core = core
    reader = nil
    return outer
  }

  /// Ends a batch: the context is what it was before `enter`.
  @usableFromInline
  static func leave(_ outer: Outer) {
    core = outer.core
    reader = outer.reader
    owner.store(outer.owner, ordering: .relaxed)
  }

  static func isOwner() -> Bool {
    let owner = owner.load(ordering: .relaxed)
    return owner != 0 && owner == currentThread()
  }

  /// Whether a store's batch is running on this thread.
  package static var isActiveOnThisThread: Bool {
    isOwner() && core != nil
  }

  /// Performs a cancellation a reducer asked for, on the core reducing on this thread;
  /// returns whether there was one (else the core that launches the effect performs it).
  static func cancelNow(_ id: EffectCancelID, reason: EffectCancelReason) -> Bool {
    guard isOwner(), let core else { return false }
    MainActor.assumeIsolated {
      core.cancelNow(id, reason: reason)
    }
    return true
  }

  /// Makes a value with `produce` and, on the thread of an instrumented core's reducer and as
  /// the outermost generator call, reports it.
  static func read<Value: Sendable>(
    _ produce: () -> Value, report: (Value) -> DependencyValueRead
  ) -> Value {
    guard isOwner(), reader != nil else { return produce() }
    readDepth += 1
    let value = produce()
    readDepth -= 1
    if readDepth == 0, let reader {
      let read = report(value)
      MainActor.assumeIsolated { reader.dependencyRead(read) }
    }
    return value
  }

  /// Reports a clock's `now`, on the thread of an instrumented core's reducer.
  static func readClock<C: Clock>(_ clock: C) -> C.Instant where C.Duration == Duration {
    guard isOwner(), reader != nil else { return clock.now }
    readDepth += 1
    let now = clock.now
    readDepth -= 1
    if readDepth == 0, let reader {
      MainActor.assumeIsolated { reader.clockRead(now, of: C.self) }
    }
    return now
  }

  /// Whether a clock read now would be reported (the clock dependency is wrapped only then).
  static var isReading: Bool {
    isOwner() && reader != nil
  }

  private static func currentThread() -> UInt {
    #if canImport(Glibc)
      UInt(pthread_self())
    #else
      UInt(bitPattern: pthread_self())
    #endif
  }
}

/// What the reducing context reaches in a root core.
@MainActor
@usableFromInline
package protocol ReducingCore: AnyObject {
  /// Cancels the effects registered under `id` now, while a reducer runs.
  func cancelNow(_ id: EffectCancelID, reason: EffectCancelReason)
  /// A generator made a value during the step being reduced.
  func dependencyRead(_ read: DependencyValueRead)
  /// The step being reduced read a clock's `now`.
  func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type) where C.Duration == Duration
}

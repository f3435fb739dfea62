import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which root core is reducing on the main thread right now, for the code a reducer calls:
/// `Effect.cancel(id:)` and child teardowns cancel through it while the reducer runs, and the
/// dependency generators report the values they make through it.
///
/// Root cores run on the main actor, which runs on the main thread, so the context is two
/// main-thread-only slots set and restored by each batch (a store sent to from inside
/// another's reducer nests). Code on any other thread sees no context. Nothing here is a
/// task-local: a batch costs two plain stores, not a task-local push.
///
/// ```swift
/// // Inside a reducer run by a store:
/// ReducingContext.isActiveOnThisThread  // true
/// // In an effect's operation, or in a test calling reducer.reduce directly:
/// ReducingContext.isActiveOnThisThread  // false
/// ```
@usableFromInline
package enum ReducingContext {
  /// The main thread, noted by every root core when it is created (on the main actor).
  private static let mainThread = Atomic<UInt>(0)

  /// The core whose batch is running (main thread only).
  @usableFromInline nonisolated(unsafe) static unowned(unsafe) var core: (any ReducingCore)?
  /// The instrumented core whose reducer is running (main thread only): dependency reads go to
  /// it.
  @usableFromInline nonisolated(unsafe) static unowned(unsafe) var reader: (any ReducingCore)?
  /// How deep in generator calls the reading thread is: a generator built on another reports
  /// once, as the outermost call.
  nonisolated(unsafe) static var readDepth = 0

  static func noteMainThread() {
    mainThread.store(currentThread(), ordering: .relaxed)
  }

  static func isMainThread() -> Bool {
    let main = mainThread.load(ordering: .relaxed)
    return main != 0 && main == currentThread()
  }

  /// Whether a store's batch is running on this thread.
  package static var isActiveOnThisThread: Bool {
    isMainThread() && core != nil
  }

  /// Performs a cancellation a reducer asked for, on the core reducing on this thread;
  /// returns whether there was one (else the core that launches the effect performs it).
  static func cancelNow(_ id: EffectCancelID, reason: EffectCancelReason) -> Bool {
    guard isMainThread(), let core else { return false }
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
    guard isMainThread(), reader != nil else { return produce() }
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
    guard isMainThread(), reader != nil else { return clock.now }
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
    isMainThread() && reader != nil
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

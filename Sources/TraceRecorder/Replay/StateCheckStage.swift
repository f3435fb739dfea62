import Foundation
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The second stage of a typed replay: a thread of its own that checks replayed states
/// against their recorded hashes while the replay thread reduces the next steps. On two cores
/// hashing a state (the larger half of a step on a composed feature) no longer waits for the
/// reducer, nor the reducer for it.
///
/// The replay thread hands it jobs, each checking a run of steps' states in order. At most
/// `capacity` jobs wait (the replay thread waits for room, so it runs at most a few runs of
/// steps ahead of the last checked state); a job that finds a failing state stops the stage:
/// the jobs after it, whose steps come later, are dropped, and `submit` says so, so that the
/// replay thread stops too. `settle` waits until every job handed over has run; `finish`
/// ends and joins the thread. Jobs, and whatever they capture, belong to the stage's thread
/// from `submit` until `settle` returned.
///
/// It is started before the replay thread installs its system-randomness filter, so the
/// stage's thread does not inherit it (encoding a state is not the reducer's randomness).
/// When no thread can be started, jobs run on the caller's thread as they are handed over.
///
/// ```swift
/// let stage = StateCheckStage()
/// _ = stage.submit(through: 0) { print("checked"); return true }
/// stage.settle()  // prints "checked" first
/// stage.finish()
/// ```
@usableFromInline
final class StateCheckStage: @unchecked Sendable {
  /// Checks a run of states; false when one failed.
  @usableFromInline typealias Job = () -> Bool

  /// Jobs that may wait at once, besides the one running.
  static let capacity = 2

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var jobs: [(job: Job, through: Int)] = []
  private var running = false
  /// The last replayed step (by order) of the last job that passed; -1 before any.
  private var passedThrough = -1
  private var failed = false
  private var stopped = false
  /// The stage's thread until it is joined; nil when none could be started.
  private var thread: pthread_t?
  /// Whether jobs run on the stage's thread (else on the caller's, as they come).
  private var threaded = false

  init() {
    // As deep as the reducer's thread: the states it hashes are the ones the reducer built.
    let stack = SystemRandomWatch.stackBytes
    thread = try? NamedThread.start(name: "rewind-hashing", stackBytes: stack) { [self] in run() }
    threaded = thread != nil
  }

  /// Hands `job` over, the check of the states up to the `through`th replayed step, waiting
  /// while `capacity` jobs wait; false, without running it, once a job failed.
  @usableFromInline
  func submit(through order: Int, _ job: @escaping Job) -> Bool {
    guard threaded else {
      guard !failed else { return false }
      failed = !job()
      if !failed { passedThrough = order }
      return !failed
    }
    condition.lock()
    defer { condition.unlock() }
    while jobs.count >= Self.capacity, !failed { condition.wait() }
    guard !failed else { return false }
    jobs.append((job, order))
    condition.broadcast()
    return true
  }

  /// The last replayed step (by order) up to which every state handed over matched; -1
  /// before any. The states between the jobs' are the ones the replay thread matched itself.
  @usableFromInline
  var checkedThrough: Int {
    locked { passedThrough }
  }

  /// Waits until every job handed over has run (or was dropped after a failure).
  @usableFromInline
  func settle() {
    condition.lock()
    while !jobs.isEmpty || running { condition.wait() }
    condition.unlock()
  }

  /// Runs `body` under the stage's lock: for what a job hands back to the replay thread.
  @usableFromInline
  func locked<Value>(_ body: () -> Value) -> Value {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// Drops the jobs still waiting, lets the running one end and joins the thread; later
  /// calls return at once.
  func finish() {
    condition.lock()
    stopped = true
    jobs.removeAll()
    condition.broadcast()
    let thread = self.thread
    self.thread = nil
    condition.unlock()
    if let thread { pthread_join(thread, nil) }
  }

  private func run() {
    condition.lock()
    while true {
      while jobs.isEmpty, !stopped { condition.wait() }
      guard !stopped else { break }
      let (job, through) = jobs.removeFirst()
      running = true
      condition.unlock()
      let passed = job()
      condition.lock()
      running = false
      if passed {
        passedThrough = through
      } else {
        failed = true
        jobs.removeAll()
      }
      condition.broadcast()
    }
    condition.unlock()
  }
}

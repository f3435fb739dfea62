import Dispatch
import Locking

/// Tells whoever waits that the writer closed the trace: `Recorder.waitUntilFinished()`
/// suspends on it; only synchronous tools (benchmarks) block a thread on it.
///
/// ```swift
/// let done = FinishSignal()
/// // writer thread: done.signal()
/// await done.wait()   // returns once signalled (at once if it already was)
/// ```
@usableFromInline
final class FinishSignal: Sendable {
  private struct State {
    var isSignalled = false
    var waiters: [@Sendable () -> Void] = []
  }

  private let state = Lock(State())

  func signal() {
    let waiters = state.withLock { state in
      state.isSignalled = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter() }
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      whenSignalled { continuation.resume() }
    }
  }

  /// Blocks the calling thread until signalled.
  func waitBlocking() {
    let semaphore = DispatchSemaphore(value: 0)
    whenSignalled { semaphore.signal() }
    semaphore.wait()
  }

  private func whenSignalled(_ waiter: @escaping @Sendable () -> Void) {
    let now = state.withLock { state in
      if state.isSignalled { return true }
      state.waiters.append(waiter)
      return false
    }
    if now { waiter() }
  }
}

import Locking

/// Named one-shot gates that a test feature's effects wait at; the test opens them one by one,
/// so an effect finishes exactly when the test says (no sleeps). A cancelled waiter opens its
/// gate and returns.
///
/// ```swift
/// let gates = EffectGates()
/// // in the effect: await gates.wait("load")
/// gates.isWaiting("load")  // true once the effect is there
/// gates.open("load")       // it goes on
/// ```
public final class EffectGates: Sendable {
  private let state = Lock<(open: Set<String>, waiters: [String: [CheckedContinuation<
    Void, Never
  >]])>(([], [:]))

  public init() {}

  public func wait(_ name: String) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state in
          if state.open.contains(name) { return true }
          state.waiters[name, default: []].append(continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      open(name)
    }
  }

  public func isWaiting(_ name: String) -> Bool {
    state.withLock { !($0.waiters[name] ?? []).isEmpty }
  }

  public func open(_ name: String) {
    let waiters = state.withLock { state in
      state.open.insert(name)
      return state.waiters.removeValue(forKey: name) ?? []
    }
    for waiter in waiters { waiter.resume() }
  }
}

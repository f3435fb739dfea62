import Locking
import Synchronization

/// What an effect reaches of the store it runs in, besides `send`: the cancellation of its
/// effects and of the operations `withTaskCancellation` runs, by id (`Task.cancel(id:)`), and
/// the times of its throttled effects.
///
/// A root core owns one and puts it in force around every effect operation it runs
/// (`EffectScope.current`), so an effect reaches its own store; code outside any store's
/// effects shares one scope that reaches no store. As upstream, an operation is registered
/// under every prefix of its navigation path, so cancelling an id from a parent reaches the
/// children that use it.
///
/// ```swift
/// // in an effect of a store:
/// EffectScope.current?.cancel(id, isolation: nil)  // its operations, then its effects
/// ```
@usableFromInline
package final class EffectScope: Sendable {
  /// The scope of the store whose effect is running.
  @TaskLocal package static var current: EffectScope?
  /// The scope of operations started outside any store's effects.
  static let outsideStores = EffectScope()

  /// When the store's throttled effects last sent an action.
  let throttleTimes = ThrottleTimes()

  private struct Registry {
    var nextToken: UInt64 = 0
    var operations: [EffectCancelID: [UInt64: @Sendable () -> Void]] = [:]
    var cancelEffects: (@MainActor @Sendable (EffectCancelID) -> Void)?
  }

  private let registry = Lock(Registry())
  /// How many operations are registered, changed under the lock and read without it by
  /// `cancelOperations`: most stores run no `withTaskCancellation` operation, and taking the
  /// lock to find the table empty cost about 100 instructions on every cancellation.
  private let registeredCount = Atomic<Int>(0)

  package init() {}

  /// Runs `operation` in this scope (as `current`).
  @usableFromInline
  func run(_ operation: () async -> Void) async {
    await Self.$current.withValue(self) { await operation() }
  }

  /// Lets this scope cancel the effects of a store (the root core connects itself).
  package func connect(cancelEffects: @escaping @MainActor @Sendable (EffectCancelID) -> Void) {
    registry.withLock { $0.cancelEffects = cancelEffects }
  }

  /// Registers an operation's cancellation under `id` and every prefix of its path; returns
  /// the token that unregisters it.
  func register(_ id: EffectCancelID, cancel: @escaping @Sendable () -> Void) -> UInt64 {
    registry.withLock { registry in
      let token = registry.nextToken
      registry.nextToken += 1
      for prefix in id.prefixes {
        registry.operations[prefix, default: [:]][token] = cancel
      }
      registeredCount.add(1, ordering: .releasing)
      return token
    }
  }

  /// Unregisters an operation that ended.
  func unregister(_ token: UInt64, from id: EffectCancelID) {
    registry.withLock { registry in
      registeredCount.subtract(1, ordering: .releasing)
      for prefix in id.prefixes {
        registry.operations[prefix]?[token] = nil
        if registry.operations[prefix]?.isEmpty == true {
          registry.operations[prefix] = nil
        }
      }
    }
  }

  /// Cancels the operations registered under `id` (the root core calls this whenever it
  /// cancels effects under an id).
  @usableFromInline
  package func cancelOperations(_ id: EffectCancelID) {
    // Most stores run no `withTaskCancellation` operation: no lock to take, no key to hash
    // then. An operation registered after this read is one the cancellation came before.
    guard registeredCount.load(ordering: .acquiring) > 0 else { return }
    let cancels = registry.withLock {
      $0.operations.isEmpty ? nil : $0.operations.removeValue(forKey: id)
    }
    for cancel in cancels?.values ?? [:].values {
      cancel()
    }
  }

  /// Cancels the operations registered under `id`, then the store's effects: at once when
  /// called on the main actor, else as soon as the main actor runs (its effect bookkeeping
  /// lives there).
  func cancel(_ id: EffectCancelID, isolation: isolated (any Actor)?) {
    cancelOperations(id)
    guard let cancelEffects = registry.withLock({ $0.cancelEffects }) else { return }
    if let isolation, isolation === MainActor.shared {
      MainActor.assumeIsolated { cancelEffects(id) }
    } else {
      Task { @MainActor in cancelEffects(id) }
    }
  }
}

import Locking
import Synchronization

/// The dependency keys a store's features read — its reducers and the effects they started —
/// each noted once per store, from whichever thread reads it: what an instrument learns from
/// `StoreInstrument.dependencyKeysLogged(_:)`, so that a test generated from a recording can
/// name the clients it needs.
///
/// A root core with an instrument keeps its log in its reducing hooks: its reducers note keys
/// through the reducing context (a key already noted there costs a short scan, no lock), and
/// each `.run` effect they return carries the log in its dependencies (a read there costs one
/// lock and a set look-up). The instrument is never called per read.
///
/// ```swift
/// // An effect reads @Dependency(\.messageClient):
/// log.count            // 1
/// log.keys(from: 0)    // [DependencyKeyLog.Key(keyType: "CounterFeature.MessageClientKey",
///                      //   valueType: "CounterFeature.MessageClient")]
/// ```
@usableFromInline
package final class DependencyKeyLog: Sendable {
  package struct Key: Sendable, Hashable {
    /// `String(reflecting:)` of the key type.
    package var keyType: String
    /// `String(reflecting:)` of the value type.
    package var valueType: String
  }

  /// A key type and its value type.
  private typealias KeyTypes = (key: Any.Type, value: Any.Type)
  /// The keys in the order first read, as types: named only when asked for (`keys(from:)`, on
  /// the writer's thread). `String(reflecting:)` of both types cost ~230,000 instructions on
  /// the main actor at each store's first read of each key.
  private let state = Lock<(seen: Set<ObjectIdentifier>, keys: [KeyTypes])>(([], []))
  private let counted = Atomic<Int>(0)

  package init() {}

  /// How many keys were noted: an instrument compares it with what it has, without a lock.
  package var count: Int { counted.load(ordering: .acquiring) }

  /// The keys noted after the first `start`, in the order they were first read.
  package func keys(from start: Int) -> [Key] {
    let types = state.withLock { Array($0.keys.dropFirst(start)) }
    return types.map {
      Key(keyType: String(reflecting: $0.key), valueType: String(reflecting: $0.value))
    }
  }

  @usableFromInline
  func note<K: TestDependencyKey>(_ key: K.Type) {
    state.withLock { state in
      guard state.seen.insert(ObjectIdentifier(key)).inserted else { return }
      state.keys.append((K.self, K.Value.self))
      counted.store(state.keys.count, ordering: .releasing)
    }
  }
}

import Observation

/// Observation for every store of one root: a reader of `store.a` is told about changes to
/// `a` only.
///
/// Each read through a store registers the path it read (from the root) with an
/// `ObservationRegistrar` and keeps the value read (when it is `Equatable`). After each batch
/// of actions the root compares the registered values with the new ones and notifies only the
/// paths that changed; a changed path is forgotten until it is read again (observation is
/// one-shot). Values that are not `Equatable` are reported changed after every batch.
///
/// Keeping the value read costs a copy-on-write copy when the reducer then mutates that same
/// collection; that is paid only for paths that are being read.
@MainActor
@usableFromInline
package final class StoreObservation: Observable {
  nonisolated let registrar = ObservationRegistrar()
  private var entries: [ObservedKey: Entry] = [:] {
    didSet { isObserved = !entries.isEmpty }
  }
  /// Whether any path is registered: checked inline after every batch, so a store nobody
  /// reads pays one load.
  @exclusivity(unchecked) @usableFromInline var isObserved = false

  package nonisolated init() {}

  /// The member key paths are formed from: one per observed path.
  nonisolated subscript(key: ObservedKey) -> Int { 0 }

  /// Registers a read of `value` at `key`; `read` gives the current value after a batch (or
  /// `nil` when the store is gone).
  func access<Value>(key: ObservedKey, value: Value, read: @escaping @MainActor () -> Value?) {
    let keyPath: KeyPath<StoreObservation, Int>
    if let entry = entries[key] {
      keyPath = entry.keyPath
    } else {
      keyPath = \StoreObservation.[key]
      entries[key] = Entry(value: value, keyPath: keyPath, read: read)
    }
    registrar.access(self, keyPath: keyPath)
  }

  /// Notifies the paths whose values changed in the batch that just ended.
  @usableFromInline
  func didFinishBatch() {
    guard !entries.isEmpty else { return }
    var changed: [ObservedKey] = []
    for (key, entry) in entries where entry.hasChanged() {
      changed.append(key)
    }
    for key in changed {
      guard let entry = entries.removeValue(forKey: key) else { continue }
      registrar.withMutation(of: self, keyPath: entry.keyPath) {}
    }
  }

  /// How many paths are registered (for tests).
  package var observedPathCount: Int { entries.count }

  @MainActor
  struct Entry {
    let hasChanged: () -> Bool
    /// The key path the registrar knows the path by (built once: forming it allocates).
    let keyPath: KeyPath<StoreObservation, Int>

    init<Value>(
      value: Value,
      keyPath: KeyPath<StoreObservation, Int>,
      read: @escaping @MainActor () -> Value?
    ) {
      self.keyPath = keyPath
      if let equatable = value as? any Equatable {
        hasChanged = {
          // A store that is gone: notify once and forget the path.
          guard let current = read() else { return true }
          return !isEqual(equatable, current)
        }
      } else {
        hasChanged = { true }
      }
    }
  }
}

private func isEqual<E: Equatable>(_ lhs: E, _ rhs: Any) -> Bool {
  guard let rhs = rhs as? E else { return false }
  return lhs == rhs
}

/// A path from the root state to an observed value.
package struct ObservedKey: Hashable, Sendable {
  enum Marker: Hashable, Sendable {
    case value
    case presence
  }

  var path: [AnyKeyPath & Sendable]
  var marker: Marker

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.marker == rhs.marker && lhs.path.count == rhs.path.count
      && zip(lhs.path, rhs.path).allSatisfy { $0 == $1 }
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(marker)
    for component in path {
      hasher.combine(component)
    }
  }
}

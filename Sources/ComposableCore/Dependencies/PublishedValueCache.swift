/// The values computed once per process for dependency keys (live or preview), read without
/// a lock: every `@Dependency` read of a default value goes through here.
///
/// The boxes live in a `PublishedTable`: the first read of a key computes its value and
/// publishes a new table with it (under the table's lock, so two first reads of one key keep
/// one value). Replaced tables are kept (see `PublishedTable`); they are replaced only when a
/// key is first read, so what is kept is bounded by the number of keys a process reads (a table
/// of n keys per key read: a few kilobytes for dozens of keys).
///
/// ```swift
/// let cache = PublishedValueCache()
/// cache.value(for: ObjectIdentifier(Int.self)) { 42 }  // 42, computed
/// cache.value(for: ObjectIdentifier(Int.self)) { 0 }   // 42, read without the lock
/// ```
@usableFromInline
package final class PublishedValueCache: Sendable {
  /// The published boxes, by key.
  @usableFromInline let table = PublishedTable<[DependencyKeyID: AnyDependencyBox]>()

  @usableFromInline package init() {}

  /// The value cached for `key`, computing it with `make` the first time (outside the lock:
  /// a value may itself read other dependencies).
  @inlinable
  package func value<Value>(for key: ObjectIdentifier, make: () -> Value) -> Value {
    if let box = box(for: key) {
      return unsafeDowncast(box, to: DependencyBox<Value>.self).value
    }
    let made = make()
    let published = publish(DependencyBox(made), for: key)
    return unsafeDowncast(published, to: DependencyBox<Value>.self).value
  }

  /// The box published for `key`, if any. Always inlined: called, it cost about 10
  /// instructions more on every dependency read.
  @inlinable @inline(__always)
  func box(for key: ObjectIdentifier) -> AnyDependencyBox? {
    table.read { $0[DependencyKeyID(key)] } ?? nil
  }

  /// Publishes `box` for `key` unless another thread published one first; returns the box
  /// that is published for `key`.
  @usableFromInline
  func publish(_ box: AnyDependencyBox, for key: ObjectIdentifier) -> AnyDependencyBox {
    table.publish { current in
      if let raced = current?[DependencyKeyID(key)] { return (nil, raced) }
      var boxes = current ?? [:]
      boxes[DependencyKeyID(key)] = box
      return (boxes, box)
    }
  }
}

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
  /// A key's identity as the table holds it: its look-up folds the table's seed into the
  /// identity's address (`HashMixing`) instead of running a `Hasher` round over it (about 50
  /// instructions more on every dependency read).
  @usableFromInline
  struct Key: Hashable, Sendable {
    @usableFromInline let id: ObjectIdentifier

    @inlinable
    init(_ id: ObjectIdentifier) {
      self.id = id
    }

    @inlinable
    func _rawHashValue(seed: Int) -> Int {
      HashMixing.mix(Int(bitPattern: UInt(bitPattern: id)), seed)
    }
  }

  /// A cached value of any type (values are immutable once cached).
  @usableFromInline
  class AnyBox: @unchecked Sendable {
    @usableFromInline init() {}
  }

  /// A cached value; the key it is stored under fixes `Value`.
  @usableFromInline
  final class Box<Value>: AnyBox, @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
      self.value = value
    }
  }

  /// The published boxes, by key.
  @usableFromInline let table = PublishedTable<[Key: AnyBox]>()

  @usableFromInline package init() {}

  /// The value cached for `key`, computing it with `make` the first time (outside the lock:
  /// a value may itself read other dependencies).
  @inlinable
  package func value<Value>(for key: ObjectIdentifier, make: () -> Value) -> Value {
    if let box = box(for: key) {
      return unsafeDowncast(box, to: Box<Value>.self).value
    }
    let made = make()
    return unsafeDowncast(publish(Box(made), for: key), to: Box<Value>.self).value
  }

  /// The box published for `key`, if any. Always inlined: called, it cost about 10
  /// instructions more on every dependency read.
  @inlinable @inline(__always)
  func box(for key: ObjectIdentifier) -> AnyBox? {
    table.read { $0[Key(key)] } ?? nil
  }

  /// Publishes `box` for `key` unless another thread published one first; returns the box
  /// that is published for `key`.
  @usableFromInline
  func publish(_ box: AnyBox, for key: ObjectIdentifier) -> AnyBox {
    table.publish { current in
      if let raced = current?[Key(key)] { return (nil, raced) }
      var boxes = current ?? [:]
      boxes[Key(key)] = box
      return (boxes, box)
    }
  }
}

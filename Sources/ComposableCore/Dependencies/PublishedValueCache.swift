import Synchronization

/// The values computed once per process for dependency keys (live or preview), read without
/// a lock: every `@Dependency` read of a default value goes through here.
///
/// Readers load a table that is never changed once published; the first read of a key computes
/// its value and publishes a new table with it (under a lock, so two first reads of one key keep
/// one value). A replaced table is kept, not freed: a reader on another thread may still be
/// looking into it, and there is no cheap way to know when it is done. Tables are replaced only
/// when a key is first read, so what is kept is bounded by the number of keys a process reads
/// (a table of n keys per key read: a few kilobytes for dozens of keys).
///
/// ```swift
/// let cache = PublishedValueCache()
/// cache.value(for: ObjectIdentifier(Int.self)) { 42 }  // 42, computed
/// cache.value(for: ObjectIdentifier(Int.self)) { 0 }   // 42, read without the lock
/// ```
@usableFromInline
package final class PublishedValueCache: Sendable {
  /// A published table; immutable.
  @usableFromInline
  final class Table: @unchecked Sendable {
    @usableFromInline let boxes: [Key: AnyBox]

    init(boxes: [Key: AnyBox]) {
      self.boxes = boxes
    }
  }

  /// A key's identity as the table holds it: its look-up folds the table's seed into the
  /// identity's address (`HashMixing`) instead of running a `Hasher` round over it (about 50
  /// instructions more on every dependency read).
  @usableFromInline
  struct Key: Hashable {
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

  /// The address of the current table (0: none yet), retained once and never released (see
  /// the type's comment).
  @usableFromInline let published = Atomic<UInt>(0)
  /// Serializes publishing.
  private let publishing = Mutex(())

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

  /// The box published for `key`, if any.
  @inlinable
  func box(for key: ObjectIdentifier) -> AnyBox? {
    // Acquiring: the table's contents were written before it was published.
    guard let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) else {
      return nil
    }
    return Unmanaged<Table>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.boxes[Key(key)] }
  }

  /// Publishes `box` for `key` unless another thread published one first; returns the box
  /// that is published for `key`.
  @usableFromInline
  func publish(_ box: AnyBox, for key: ObjectIdentifier) -> AnyBox {
    publishing.withLock { _ in
      var boxes: [Key: AnyBox] = [:]
      if let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
        boxes = Unmanaged<Table>.fromOpaque(raw).takeUnretainedValue().boxes
        if let raced = boxes[Key(key)] { return raced }
      }
      boxes[Key(key)] = box
      let table = Unmanaged.passRetained(Table(boxes: boxes))
      published.store(UInt(bitPattern: table.toOpaque()), ordering: .releasing)
      return box
    }
  }
}

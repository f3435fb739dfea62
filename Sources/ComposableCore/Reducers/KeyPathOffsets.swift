/// The inline offsets of the writable key paths `Scope` and `forEach` reach state through,
/// looked up once per key path object: `MemoryLayout<Root>.offset(of:)` walks the key path's
/// buffer on every call (about 200 instructions), and a body rebuilt for every action hands
/// its reducers the same key path objects each time (a key path literal outside a generic
/// context is instantiated once per process).
///
/// Slots are picked by the key path object's address, in a `PublishedTable`, so a read takes no
/// lock. A slot, once filled, keeps its key path retained for the life of the process: the
/// object cannot be freed, so no other key path can come to have its address and read its
/// offset. A key path whose slot another one holds (or one made afresh for each use, as in a
/// generic context) is looked up each time, as without the cache; at most `slotCount` key
/// paths are kept.
///
/// ```swift
/// KeyPathOffsets.shared.offset(of: \Parent.State.todos)  // MemoryLayout's, then the kept one
/// KeyPathOffsets.shared.offset(of: \Parent.State.$sheet)  // nil: a computed property
/// ```
@usableFromInline
package final class KeyPathOffsets: Sendable {
  /// The process's offsets.
  @usableFromInline package static let shared = KeyPathOffsets()

  @usableFromInline static let slotCount = 64

  /// A key path and its offset (nil when its storage is not laid out inline in its root).
  /// Unchecked: key path objects are immutable, but their types are not declared `Sendable`.
  @usableFromInline
  struct Entry: @unchecked Sendable {
    @usableFromInline let keyPath: AnyKeyPath?
    @usableFromInline let offset: Int?
  }

  /// The published tables of `slotCount` entries. A table is replaced only when an empty slot
  /// is filled, so at most `slotCount` are made (and kept: see `PublishedTable`).
  @usableFromInline let table = PublishedTable<[Entry]>()

  @usableFromInline package init() {}

  /// `MemoryLayout<Root>.offset(of: keyPath)`, kept for the key path object.
  @inlinable
  package func offset<Root, Value>(of keyPath: WritableKeyPath<Root, Value>) -> Int? {
    let slot = Self.slot(of: keyPath)
    // nil: nothing published; .some(nil): the slot holds another key path or none.
    let kept = table.read { entries -> Int?? in
      let entry = entries[slot]
      return entry.keyPath === keyPath ? .some(entry.offset) : .none
    }
    if let kept, let offset = kept { return offset }
    let offset = MemoryLayout<Root>.offset(of: keyPath)
    keep(offset, for: keyPath, in: slot)
    return offset
  }

  /// The slot of a key path object, from its address (objects are 16-byte aligned).
  @inlinable
  static func slot(of keyPath: AnyKeyPath) -> Int {
    let address = UInt(bitPattern: ObjectIdentifier(keyPath))
    return Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & (slotCount - 1)
  }

  /// Publishes `offset` for `keyPath` in `slot` unless the slot holds a key path already.
  @usableFromInline
  func keep(_ offset: Int?, for keyPath: AnyKeyPath, in slot: Int) {
    table.publish { current in
      var entries =
        current ?? Array(repeating: Entry(keyPath: nil, offset: nil), count: Self.slotCount)
      guard entries[slot].keyPath == nil else { return (nil, ()) }
      entries[slot] = Entry(keyPath: keyPath, offset: offset)
      return (entries, ())
    }
  }
}

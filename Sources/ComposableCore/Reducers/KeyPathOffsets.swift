import Synchronization

/// The inline offsets of the writable key paths `Scope` and `forEach` reach state through,
/// looked up once per key path object: `MemoryLayout<Root>.offset(of:)` walks the key path's
/// buffer on every call (about 200 instructions), and a body rebuilt for every action hands
/// its reducers the same key path objects each time (a key path literal outside a generic
/// context is instantiated once per process).
///
/// Slots are picked by the key path object's address; a published table is never changed (as
/// `PublishedValueCache`'s), so a read takes no lock. A slot, once filled, keeps its key path
/// retained for the life of the process: the object cannot be freed, so no other key path can
/// come to have its address and read its offset. A key path whose slot another one holds (or
/// one made afresh for each use, as in a generic context) is looked up each time, as without
/// the cache; at most `slotCount` key paths are kept.
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
  @usableFromInline
  struct Entry {
    @usableFromInline let keyPath: AnyKeyPath?
    @usableFromInline let offset: Int?
  }

  /// A published table of `slotCount` entries; immutable.
  @usableFromInline
  final class Table: @unchecked Sendable {
    @usableFromInline let entries: [Entry]

    init(entries: [Entry]) {
      self.entries = entries
    }
  }

  /// The address of the current table (0: none yet), retained once and never released: a
  /// reader on another thread may still be looking into a replaced table. A table is replaced
  /// only when an empty slot is filled, so at most `slotCount` are made.
  @usableFromInline let published = Atomic<UInt>(0)
  /// Serializes publishing.
  private let publishing = Mutex(())

  @usableFromInline package init() {}

  /// `MemoryLayout<Root>.offset(of: keyPath)`, kept for the key path object.
  @inlinable
  package func offset<Root, Value>(of keyPath: WritableKeyPath<Root, Value>) -> Int? {
    let slot = Self.slot(of: keyPath)
    // Acquiring: the table's entries were written before it was published.
    if let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
      let kept: Int?? = Unmanaged<Table>.fromOpaque(raw)._withUnsafeGuaranteedRef { table in
        let entry = table.entries[slot]
        return entry.keyPath === keyPath ? .some(entry.offset) : .none
      }
      if let kept { return kept }
    }
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
    publishing.withLock { _ in
      var entries: [Entry]
      if let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
        entries = Unmanaged<Table>.fromOpaque(raw).takeUnretainedValue().entries
        guard entries[slot].keyPath == nil else { return }
      } else {
        entries = Array(repeating: Entry(keyPath: nil, offset: nil), count: Self.slotCount)
      }
      entries[slot] = Entry(keyPath: keyPath, offset: offset)
      let table = Unmanaged.passRetained(Table(entries: entries))
      published.store(UInt(bitPattern: table.toOpaque()), ordering: .releasing)
    }
  }
}

/// Memory for the texts a statement binds in place (`SQLiteStatement.bind(borrowing:at:)`):
/// SQLite reads a text bound as static where it is, instead of copying it into an allocation of
/// its own, which with this build (no lookaside, memory statistics on) is a `malloc` behind a
/// mutex and a `free`, about 700 instructions a text.
///
/// The bytes stay where they were put until `reset()`: a full arena is kept beside the next,
/// larger one, never moved. The statement resets it when it clears its bindings.
///
/// ```swift
/// var arena = SQLiteTextArena()
/// let text = arena.copy(UnsafeRawBufferPointer(...))  // valid until arena.reset()
/// ```
struct SQLiteTextArena {
  private var current: UnsafeMutableRawBufferPointer?
  private var used = 0
  /// Arenas filled since the last reset: bindings may still point into them.
  private var retired: [UnsafeMutableRawBufferPointer] = []

  /// Room for `count` bytes, valid until `reset()`.
  mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
    if let current, current.count - used >= count {
      defer { used += count }
      return current.baseAddress! + used
    }
    if let current { retired.append(current) }
    let next = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(4_096, 2 * (current?.count ?? 0), count), alignment: 8)
    current = next
    used = count
    return next.baseAddress!
  }

  /// A copy of `bytes`, valid until `reset()`.
  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
    let destination = reserve(bytes.count)
    if let source = bytes.baseAddress, bytes.count > 0 {
      destination.copyMemory(from: source, byteCount: bytes.count)
    }
    return destination
  }

  /// Frees the earlier arenas and reuses the current one from its start.
  mutating func reset() {
    for arena in retired { arena.deallocate() }
    retired.removeAll(keepingCapacity: true)
    used = 0
  }

  /// Frees everything; the arena is not used afterwards.
  mutating func release() {
    reset()
    current?.deallocate()
    current = nil
  }
}

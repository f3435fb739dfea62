/// Computes `TraceValue.stableHash` of an `Encodable` value without building its tree (see
/// `HashingEncoding`), keeping its coding levels and their word buffers from one value to the
/// next: a replay hashes a state of the same shape at every step, and after the first one no
/// level is allocated.
///
/// One thread at a time (a replay's own thread).
///
/// ```swift
/// let hasher = StableHashEncoder(replacingClassInstances: true)
/// try hasher.stableHash(of: state)
///   == TraceValueEncoder().encodeReplacingClassInstances(state).value.stableHash  // true
/// ```
@usableFromInline
package final class StableHashEncoder {
  /// Whether a value holding class instances is hashed as its placeholder string, as
  /// `TraceValueEncoder.encodeReplacingClassInstances` writes it.
  let replacesClassInstances: Bool
  /// Finished levels, ready to be used again (one thread at a time: unchecked).
  @exclusivity(unchecked) private var spare: [HashingEncoding] = []
  /// The previous value's places and hashes, when class instances are replaced (see
  /// `HashMemo`: only then do the same bits mean the same encoding).
  private let memo: HashMemo?
  /// The bytes that hold a value of a type, for the memo's comparison; nil: all of its bytes.
  private let valueBytes: ((Any.Type) -> any ValueBytes)?
  /// The layouts of the types met so far: a type's `valueBytes` is read from the runtime's
  /// field records once, not once per place that holds it (the rows of a list).
  @exclusivity(unchecked) private var layouts: [ObjectIdentifier: ValueLayout] = [:]

  /// `valueBytes` names the bytes of a type that hold its value (a struct's fields without
  /// its padding), which the memo compares; without it the memo compares all of them.
  @usableFromInline
  package init(
    replacingClassInstances: Bool = false, valueBytes: ((Any.Type) -> any ValueBytes)? = nil
  ) {
    replacesClassInstances = replacingClassInstances
    memo = replacingClassInstances ? HashMemo() : nil
    self.valueBytes = valueBytes
  }

  deinit {
    // A spare level keeps the pool unowned, and its kept keyed container keeps the level.
    for level in spare { level.forgetContainer() }
    spare.removeAll()
  }

  /// `TraceValueEncoder().encode(value).stableHash` (or of
  /// `encodeReplacingClassInstances(value).value`).
  ///
  /// - Throws: what the tree encoder throws for the value.
  @usableFromInline
  package func stableHash<T: Encodable>(of value: T) throws -> UInt64 {
    if let hash = try? hashWithoutTree(value) { return hash }
    // Whatever failed, the tree encoder reports it as it would have (or encodes it).
    let encoder = TraceValueEncoder()
    let tree =
      replacesClassInstances
      ? try encoder.encodeReplacingClassInstances(value).value : try encoder.encode(value)
    return tree.stableHash
  }

  /// The hash by `HashingEncoding` alone (no fallback; tests compare it with the tree's).
  func hashWithoutTree<T: Encodable>(_ value: T) throws -> UInt64 {
    let root = level(parent: nil, key: .none)
    defer { recycle(root) }
    root.memo = memo
    return try root.memoized(value, key: .none).stableHash
  }

  /// The bytes the memo compares for a value of `type`: `valueBytes` of it, asked once per
  /// type, or all of them.
  func layout<T>(of type: T.Type) -> ValueLayout {
    let id = ObjectIdentifier(type)
    if let known = layouts[id] { return known }
    let layout = ValueLayout(size: MemoryLayout<T>.size, ranges: valueBytes?(type).ranges)
    layouts[id] = layout
    return layout
  }

  /// A level below `parent`, reused when one is spare.
  func level(parent: HashingEncoding?, key: HashingEncoding.LevelKey) -> HashingEncoding {
    guard let level = spare.popLast() else {
      return HashingEncoding(pool: self, parent: parent, key: key)
    }
    level.reset(parent: parent, key: key)
    return level
  }

  /// Takes back a finished level and the levels nested in it (read in place: a list of them
  /// made for the walk was an allocation a level).
  func recycle(_ level: HashingEncoding) {
    for index in level.pending.indices { recycle(level.pending[index].child) }
    level.release()
    spare.append(level)
  }
}

/// What one place of a value (a field, an element, a level's single value) held the last
/// time `StableHashEncoder` hashed it, and what it hashed to: when the next value there has
/// the same bits, its hash is reused and its subtree is not encoded again.
///
/// Same bits, not `==`: `-0.0 == 0.0` but they hash apart, and a custom `==` may ignore what
/// the encoding writes. The memo keeps the old value, so the heap buffers its bits point to
/// (arrays, strings, dictionaries) are shared and copy-on-write: a reducer that changed one
/// wrote a new buffer, and its bits differ. Only a class instance could change in place with
/// the same bits, and the memo is used only where class instances are written as their
/// placeholder (`StableHashEncoder(replacingClassInstances: true)`), whose text depends on the
/// type alone: whether a value is one is decided from its type, or, where the type cannot say,
/// from the value, whose bits then hold what decides: an enum value's case (its tag is in its
/// bits), or what an existential holds (see `TypeKindCache.decision(of:)`).
///
/// Which bits: all of the value's `size` bytes, or those its type's `ValueBytes` names (the
/// encoder's `valueBytes`, asked once per type and kept as a `ValueLayout`). A struct's
/// padding is not part of its value and a copy of the value does not keep it: compared whole,
/// an unchanged `Counter.State` (a `Bool` before a `String`) would read as changed at almost
/// every step.
///
/// ```swift
/// let memo = HashMemo()
/// memo.remember(state, hashed: hashed, pool: hasher)
/// memo.reuse(state)  // hashed: same bits
/// ```
final class HashMemo {
  // One hashing thread at a time, and read or written for every field hashed: no dynamic
  // exclusivity checks (they were 3,000 instructions a replayed step of Showcase).
  /// The memos of the places one level below, by the order in which they are written.
  @exclusivity(unchecked) private var children: [HashMemo] = []
  /// The last value (a `Slot<T>`) and its type.
  @exclusivity(unchecked) private var slot: AnyObject?
  @exclusivity(unchecked) private var type: Any.Type?
  /// Where `slot` keeps the value: compared in place, without reading it through the slot
  /// (which would retain the slot) or copying it.
  @exclusivity(unchecked) private var kept: UnsafeMutableRawPointer?
  /// The bytes of `type` that hold its value (kept alive for `spans`).
  @exclusivity(unchecked) private var layout: ValueLayout?
  /// `layout`'s spans, read without retaining it.
  @exclusivity(unchecked) private var spans = UnsafeBufferPointer<Int>(start: nil, count: 0)
  @exclusivity(unchecked) private var hashed = HashingEncoding.Hashed.scalar(.null)
  /// What the encoder does with the values of `kindType` here (`TypeKindCache`), kept so
  /// that a value with new bits does not take the cache's lock and dictionary look-up again.
  @exclusivity(unchecked) private var kindType: Any.Type?
  @exclusivity(unchecked) private var decision = TypeKindCache.Decision.kind(.plain)
  /// `optionalType`'s `OptionalCoding` conformance, if any, kept as `decision` is.
  @exclusivity(unchecked) private var optionalType: Any.Type?
  @exclusivity(unchecked) private var optional: (any OptionalCoding.Type)?

  /// A value at an address of its own, for as long as the slot lives.
  private final class Slot<T> {
    let pointer: UnsafeMutablePointer<T>

    init(_ value: T) {
      pointer = .allocate(capacity: 1)
      pointer.initialize(to: value)
    }

    deinit {
      pointer.deinitialize(count: 1)
      pointer.deallocate()
    }
  }

  /// The memo of the `ordinal`th place below this one.
  @inline(__always)
  func child(_ ordinal: Int) -> HashMemo {
    while children.count <= ordinal { children.append(HashMemo()) }
    return children[ordinal]
  }

  /// The hash kept for `value` if the last value here had the same type and bits.
  @inline(__always)
  func reuse<T>(_ value: T) -> HashingEncoding.Hashed? {
    guard let type, type == T.self, let kept else { return nil }
    let spans = spans
    let same = withUnsafeBytes(of: value) { new in
      ValueLayout.same(UnsafeRawPointer(kept), new.baseAddress!, spans: spans)
    }
    return same ? hashed : nil
  }

  /// `TypeKindCache.encodingKind(of:value:)`, with the type's decision kept for the type at
  /// this place.
  @inline(__always)
  func encodingKind<T>(of value: T) -> TypeKindCache.Kind {
    if let kindType, kindType == T.self { return decision.kind(of: value) }
    decision = TypeKindCache.decision(of: T.self)
    kindType = T.self
    return decision.kind(of: value)
  }

  /// `type` as an `OptionalCoding` type, kept for its type at this place.
  @inline(__always)
  func optionalCoding<T>(of type: T.Type) -> (any OptionalCoding.Type)? {
    if let optionalType, optionalType == T.self { return optional }
    optional = type as? any OptionalCoding.Type
    optionalType = T.self
    return optional
  }

  /// Keeps `value` and its hash (the places below keep theirs); `pool` lays out a type new
  /// at this place.
  func remember<T>(_ value: T, hashed: HashingEncoding.Hashed, pool: StableHashEncoder) {
    if let type, type == T.self, let kept {
      kept.assumingMemoryBound(to: T.self).pointee = value
    } else {
      let slot = Slot(value)
      self.slot = slot
      kept = UnsafeMutableRawPointer(slot.pointer)
      type = T.self
      let layout = pool.layout(of: T.self)
      self.layout = layout
      spans = UnsafeBufferPointer(layout.spans)
      children = []
    }
    self.hashed = hashed
  }
}

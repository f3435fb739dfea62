#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keyed containers `TraceValueEncoder` hands out: one per key type and thread, made once.
/// Making a `KeyedEncodingContainer` per coding level instantiated `TraceKeyedEncoding<Key>`,
/// its witness table and its box through the runtime's metadata cache and allocated the box:
/// about 1,300 instructions a container (callgrind), one per encoded struct, enum case and
/// payload (every recorded action; 10,000 for a list of 10,000 todos).
///
/// Rules that keep a shared container from writing into a value that is not its own:
/// - A container is bound to one level at a time. A level asking for a key type whose container
///   is bound to another level (a nested container of the same key type, a value holding a
///   value of its own type) gets a container of its own, made as before.
/// - A binding lasts while the value that asked for it encodes (`TraceEncoding.encodeChild`);
///   then the container is unbound. A container kept past that (stored by an `encode(to:)`)
///   would write into the next value of its key type: the cache sees it still referenced when
///   it unbinds it, retires it (it stays unbound, so its `encode` calls throw) and makes a new
///   one for the next value.
/// - One encoding at a time per thread uses the cache (`take`/`giveBack`): an encoding started
///   inside another one's `encode(to:)` makes its containers as before.
///
/// ```swift
/// // struct Todo: Encodable { var title: String }
/// try TraceValueEncoder().encode([Todo(title: "a"), Todo(title: "b")])
/// // one Todo.CodingKeys container, bound to the first todo's level, then to the second's
/// ```
final class KeyedContainerCache {
  /// The level a shared container's calls go to (nil when none is encoding).
  final class Slot {
    // Not retained: every field written would retain and release it. A level is bound only
    // while the value that asked for it encodes, and the level is alive until then (held by
    // `encodeChild`, or by its parent's `pending` list).
    @exclusivity(unchecked) var level: Unmanaged<TraceEncoding>?
  }

  /// A key type's container, kept as the one reference to its box: a `KeyedEncodingContainer`
  /// is a single reference (checked by `sharable`). Reading it as the generic container type
  /// costs a metadata look-up each time (about 330 instructions), so it is read as such only
  /// when handed out.
  class Entry {
    final let slot: Slot
    @exclusivity(unchecked) final var box: AnyObject
    /// Set once the container was found kept after its value's encoding: it is never bound
    /// again.
    @exclusivity(unchecked) final var retired = false

    init(slot: Slot, box: AnyObject) {
      self.slot = slot
      self.box = box
    }

    /// Whether anything but this entry still holds the container (a copy was kept).
    final func isShared() -> Bool { !isKnownUniquelyReferenced(&box) }
  }

  /// An entry generic over the container's own type (`KeyedEncodingContainer<Key>`), not over
  /// `Key`: `container` finds that type's metadata in this object's class, where code generic
  /// over `Key` looked it up in the runtime's metadata cache at every container handed out
  /// (about 450 instructions; callgrind).
  final class Typed<Container>: Entry {
    /// The container, read with the metadata this object's class holds. Not inlined: a caller
    /// generic over `Key` would look it up again.
    var container: Container {
      @inline(never) get { unsafeBitCast(box, to: Container.self) }
    }
  }

  /// A new entry for `Key`'s container. Not inlined: the compiler looked the container's type
  /// up at the start of any function that makes one, whichever path it then took.
  @inline(never)
  private static func makeEntry<Key: CodingKey>(_ type: Key.Type) -> Entry {
    let slot = Slot()
    let container = KeyedEncodingContainer(TraceKeyedEncoding<Key>(slot: slot))
    return Typed<KeyedEncodingContainer<Key>>(
      slot: slot, box: unsafeBitCast(container, to: AnyObject.self))
  }

  /// Whether `KeyedEncodingContainer` is the single reference `Entry.box` holds.
  static let sharable =
    MemoryLayout<KeyedEncodingContainer<TraceCodingKey>>.size == MemoryLayout<AnyObject>.size

  /// The entries of the first key types met: comparing a few identifiers costs less than
  /// hashing one. Those of the rest are hashed.
  @exclusivity(unchecked) private var first: [(key: ObjectIdentifier, entry: Entry)] = []
  @exclusivity(unchecked) private var rest: [ObjectIdentifier: Entry] = [:]
  private static var compared: Int { 16 }
  /// The entries bound, in order: the first `boundCount` (the array is reused).
  @exclusivity(unchecked) private var bound: [Entry] = []
  @exclusivity(unchecked) private(set) var boundCount = 0
  @exclusivity(unchecked) private var inUse = false
  /// `EnumCaseDetector.isSynthesizedEnumPayload`'s answers on this thread, by the two key types
  /// and the case's name (its answer depends on nothing else): asking it again read both
  /// types' names from a locked table and compared their bytes, about 1,100 instructions per
  /// nested container of every action encoded. At most `payloadsKept` (the cases an app's
  /// actions nest through), compared one by one.
  @exclusivity(unchecked) private var payloads:
    [(outer: ObjectIdentifier, nested: ObjectIdentifier, caseName: String, isPayload: Bool)] =
      []
  private static var payloadsKept: Int { 64 }

  /// The entry of `Key`'s shared container, bound to `level`; nil when it is bound to another
  /// level.
  @inline(__always)
  func bind<Key: CodingKey>(_ type: Key.Type, to level: TraceEncoding)
    -> Typed<KeyedEncodingContainer<Key>>?
  {
    let entry = unsafeDowncast(
      self.entry(for: type), to: Typed<KeyedEncodingContainer<Key>>.self)
    if let bound = entry.slot.level {
      return bound.toOpaque() == Unmanaged.passUnretained(level).toOpaque() ? entry : nil
    }
    entry.slot.level = Unmanaged.passUnretained(level)
    if boundCount < self.bound.count {
      self.bound[boundCount] = entry
    } else {
      self.bound.append(entry)
    }
    boundCount += 1
    return entry
  }

  private func entry<Key: CodingKey>(for type: Key.Type) -> Entry {
    let id = ObjectIdentifier(type)
    if let index = first.firstIndex(where: { $0.key == id }) {
      if first[index].entry.retired { first[index].entry = Self.makeEntry(type) }
      return first[index].entry
    }
    if let known = rest[id], !known.retired { return known }
    let entry = Self.makeEntry(type)
    if first.count < Self.compared {
      first.append((id, entry))
    } else {
      rest[id] = entry
    }
    return entry
  }

  /// `EnumCaseDetector.isSynthesizedEnumPayload(outer:nested:caseName:)`, answered once per
  /// key types and case name on this thread.
  func isSynthesizedEnumPayload(outer: Any.Type, nested: Any.Type, caseName: String) -> Bool {
    let outerID = ObjectIdentifier(outer)
    let nestedID = ObjectIdentifier(nested)
    let known: Bool? = payloads.withUnsafeBufferPointer { payloads in
      for index in payloads.indices
      where payloads[index].outer == outerID && payloads[index].nested == nestedID
        && payloads[index].caseName == caseName
      {
        return payloads[index].isPayload
      }
      return nil
    }
    if let known { return known }
    let isPayload = EnumCaseDetector.isSynthesizedEnumPayload(
      outer: outer, nested: nested, caseName: caseName)
    if payloads.count < Self.payloadsKept {
      payloads.append((outerID, nestedID, caseName, isPayload))
    }
    return isPayload
  }

  /// Unbinds the containers bound since `boundCount` was `mark`, retiring those still kept.
  func unbind(downTo mark: Int) {
    while boundCount > mark {
      boundCount -= 1
      let entry = bound[boundCount]
      entry.slot.level = nil
      if entry.isShared() { entry.retired = true }
    }
  }

  /// This thread's cache, for one encoding; nil while another encoding on this thread has it.
  static func take() -> KeyedContainerCache? {
    guard sharable else { return nil }
    if let raw = pthread_getspecific(threadKey) {
      let cache = Unmanaged<KeyedContainerCache>.fromOpaque(raw).takeUnretainedValue()
      if cache.inUse { return nil }
      cache.inUse = true
      return cache
    }
    let cache = KeyedContainerCache()
    cache.inUse = true
    pthread_setspecific(threadKey, Unmanaged.passRetained(cache).toOpaque())
    return cache
  }

  /// Ends the encoding that took the cache: every container is unbound.
  func giveBack() {
    unbind(downTo: 0)
    inUse = false
  }

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
      guard let raw = raw as UnsafeMutableRawPointer? else { return }
      Unmanaged<KeyedContainerCache>.fromOpaque(raw).release()
    }
    return key
  }()
}

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `Encoder` behind `StableHashEncoder`: it computes the stable hash of what
/// `TraceEncoding` would build, bottom-up, without building the tree.
///
/// One instance per coding level, as in `TraceEncoding`. A level keeps the words of its
/// children (`StableWordBuffer`) until it finishes, because its head word, which the hash
/// starts with, holds its count. A finished level hands its parent a `Hashed`: a scalar, or a
/// container's head word and hash, which is all a parent writes of a container child.
///
/// What a value becomes is decided by the same code as in `TraceEncoding`: `TraceEncoding.leaf`
/// (strings, numbers, `Date`, `UUID`, `Data`, `URL`), `TypeKindCache` (optionals, sets,
/// dictionaries, values holding class instances), `OptionalSomeMarker` and
/// `EnumCaseDetector`. Sets and dictionaries, which are sorted by their elements' JSON text,
/// are built as a tree by `TraceEncoding` and hashed. Anything the tree encoder would throw
/// for (a level that asked for two kinds of container) throws `Irregular` here, and the caller
/// encodes the whole value to get the error the tree encoder gives.
final class HashingEncoding: Encoder, SingleValueEncodingContainer {
  /// What a finished level, or a value, gives its parent.
  enum Hashed {
    /// A null, bool, number, string or byte string: written inline.
    case scalar(TraceValue)
    /// A `UUID`: the string `TraceEncoding.leaf` makes of it, hashed without making it.
    case uuid(UUID)
    /// An array, object, enum case or reflected value: its head word and hash. `marker`: it
    /// is `OptionalSomeMarker`'s enum case.
    case container(head: UInt64, hash: UInt64, marker: Bool)

    /// The tree's hash and, for a container, its head word.
    init(_ value: TraceValue) {
      if MerkleHash.isContainer(value) {
        self = .container(
          head: MerkleHash.head(value), hash: MerkleHash.hash(value),
          marker: OptionalSomeMarker.unwrap(value) != nil)
      } else {
        self = .scalar(value)
      }
    }

    /// `TraceValue.stableHash` of the value.
    var stableHash: UInt64 {
      switch self {
      case .scalar(let value):
        return MerkleHash.hash(value)
      case .uuid:
        var hasher = StableHasher()
        write(into: &hasher)
        return hasher.finalize()
      case .container(_, let hash, _):
        return hash
      }
    }

    /// Writes the value as a child of a container (see `TraceValue.stableHash`).
    @inline(__always)
    func write<Sink: StableWordSink>(into sink: inout Sink) {
      switch self {
      case .scalar(let value):
        MerkleHash.combineWords(value, into: &sink)
      case .uuid(let uuid):
        UUIDText.withUTF8(uuid) { MerkleHash.combine(utf8: $0, into: &sink) }
      case .container(let head, let hash, _):
        sink.combine(head)
        sink.combine(hash)
      }
    }

    /// `OptionalSomeMarker.needsMarker` of the value.
    var needsOptionalMarker: Bool {
      switch self {
      case .scalar(.null): true
      case .scalar, .uuid: false
      case .container(_, _, let marker): marker
      }
    }

    /// `OptionalSomeMarker.wrap` of the value.
    func wrappedInOptionalMarker() -> Hashed {
      let head: UInt64 = 0x09 | 1 << 8
      var hasher = StableHasher()
      hasher.combine(head)
      MerkleHash.combine(string: OptionalSomeMarker.caseName, into: &hasher)
      MerkleHash.combine(string: "_0", into: &hasher)
      write(into: &hasher)
      return .container(head: head, hash: hasher.finalize(), marker: true)
    }
  }

  /// The tree encoder would throw here (or the value asked for something this encoder does
  /// not follow): encode the value as a tree instead.
  struct Irregular: Error {}

  /// Where a level is in its parent, for `codingPath`: asked for by few values, kept by every
  /// level. An element's index is kept as it is (its `TraceCodingKey`, made on demand, is
  /// larger than an existential's inline buffer: boxing one allocates), and none of it is an
  /// `Optional` of an existential, whose copy and destroy go through `Optional`'s generic
  /// value witnesses (about 110 instructions each, several times a level).
  ///
  /// ```swift
  /// HashingEncoding.LevelKey.index(3).codingKey?.stringValue  // "Index 3"
  /// ```
  enum LevelKey {
    case none
    case index(Int)
    case coding(any CodingKey)

    /// The key as `TraceEncoding` takes it.
    var codingKey: CodingKey? {
      switch self {
      case .none: nil
      case .index(let index): TraceCodingKey(index: index)
      case .coding(let key): key
      }
    }
  }

  // Only touched by the coding level that owns them, on one thread (see `TraceEncoding`).
  /// The pool the level comes from and goes back to; it outlives every level it hands out.
  unowned(unsafe) let pool: StableHashEncoder
  @exclusivity(unchecked) var parent: HashingEncoding?
  @exclusivity(unchecked) var key = LevelKey.none
  @exclusivity(unchecked) var mode = TraceEncoding.Mode.none
  @exclusivity(unchecked) var single = Hashed.scalar(.null)
  /// The words of the fields or elements written so far (pending ones not yet).
  @exclusivity(unchecked) var buffer = StableWordBuffer()
  /// Fields or elements written so far.
  @exclusivity(unchecked) var count = 0
  /// The first field's key: an enum case whose payload this level is checks it.
  @exclusivity(unchecked) var firstKey: String?
  /// Where in `buffer` each run of 64 elements after the first starts.
  @exclusivity(unchecked) var runStarts: [Int] = []
  /// Nested containers and super encoders, with where their words go in `buffer` and which
  /// element they are.
  @exclusivity(unchecked) var pending: [(offset: Int, element: Int, child: HashingEncoding)] = []
  /// Set when the only nested container is a synthesized enum case's payload (also in
  /// `pending`).
  @exclusivity(unchecked) var enumPayload: HashingEncoding?
  @exclusivity(unchecked) var conflict = false
  /// After `finish()` on a level that is an object: its field words (an enum case around it
  /// writes them after its name).
  @exclusivity(unchecked) var objectWords: [UInt64]?
  /// What `finish()` gave (a pending level can be asked twice: as an enum's payload, then
  /// as a field when it turned out not to be an object).
  @exclusivity(unchecked) var finished: Hashed?
  /// The memo of this level's place, when the pool keeps one (see `HashMemo`).
  @exclusivity(unchecked) var memo: HashMemo?
  /// The last keyed container this level handed out (a `KeyedEncodingContainer<Key>`, whose
  /// only stored property is its box) and its `Key`, and the one before it of other keys: a
  /// level asked for a container of the same keys again hands the same one out. Making one
  /// boxes a `HashingKeyedEncoding<Key>`, whose generic metadata and the box's the runtime
  /// looks up in its caches (about 1,300 instructions a container). A spare level serves
  /// places of several types in turn: with one container kept, about 18 % would be made
  /// again. The boxes refer to the level, so the pool breaks the cycle when it goes
  /// (`forgetContainer()`).
  @exclusivity(unchecked) private var keyedContainer: AnyObject?
  @exclusivity(unchecked) private var keyedContainerKey: Any.Type?
  @exclusivity(unchecked) private var olderContainer: AnyObject?
  @exclusivity(unchecked) private var olderContainerKey: Any.Type?

  var replacesClassInstances: Bool { pool.replacesClassInstances }

  init(pool: StableHashEncoder, parent: HashingEncoding?, key: LevelKey) {
    self.pool = pool
    self.parent = parent
    self.key = key
  }

  /// Makes a spare level new again, keeping its buffers' capacity.
  func reset(parent: HashingEncoding?, key: LevelKey) {
    self.parent = parent
    self.key = key
    memo = nil
    mode = .none
    count = 0
    conflict = false
  }

  /// Lets go of what the level refers to, its nested levels included (which keep their
  /// parent, see `TraceEncoding.dismantle`), before it waits as a spare. The pool takes the
  /// nested levels back first (`StableHashEncoder.recycle`). A buffer already empty is left
  /// as it is: emptying one keeping its capacity costs a call even when there is nothing in
  /// it (and most levels never start a second run of elements).
  func release() {
    parent = nil
    key = .none
    single = .scalar(.null)
    firstKey = nil
    objectWords = nil
    finished = nil
    enumPayload = nil
    if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
    if !buffer.words.isEmpty { buffer.words.removeAll(keepingCapacity: true) }
    if !runStarts.isEmpty { runStarts.removeAll(keepingCapacity: true) }
  }

  var codingPath: [CodingKey] {
    var path: [CodingKey] = []
    var level: HashingEncoding? = self
    while let current = level {
      if let key = current.key.codingKey { path.append(key) }
      level = current.parent
    }
    return path.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private func enter(_ wanted: TraceEncoding.Mode) {
    if mode == wanted { return }
    if mode == .none {
      mode = wanted
      if wanted != .single { buffer.words.reserveCapacity(16) }
    } else {
      conflict = true
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    enter(.keyed)
    if let keyedContainer, keyedContainerKey == Key.self {
      return unsafeBitCast(keyedContainer, to: KeyedEncodingContainer<Key>.self)
    }
    if let olderContainer, olderContainerKey == Key.self {
      swap(&keyedContainer, &self.olderContainer)
      swap(&keyedContainerKey, &olderContainerKey)
      return unsafeBitCast(olderContainer, to: KeyedEncodingContainer<Key>.self)
    }
    let container = KeyedEncodingContainer(HashingKeyedEncoding<Key>(encoding: self))
    // Kept only where the standard library's container is that one reference (as
    // `KeyedContainerCache` checks): otherwise each request makes its own.
    guard KeyedContainerCache.sharable else { return container }
    olderContainer = keyedContainer
    olderContainerKey = keyedContainerKey
    keyedContainer = unsafeBitCast(container, to: AnyObject.self)
    keyedContainerKey = Key.self
    return container
  }

  /// Lets go of the keyed containers kept for the next values (and the cycles through them).
  func forgetContainer() {
    keyedContainer = nil
    keyedContainerKey = nil
    olderContainer = nil
    olderContainerKey = nil
  }

  func unkeyedContainer() -> UnkeyedEncodingContainer {
    enter(.unkeyed)
    return HashingUnkeyedEncoding(encoding: self)
  }

  func singleValueContainer() -> SingleValueEncodingContainer {
    enter(.single)
    return self
  }

  // MARK: Writing

  /// Starts a field: its key's words.
  @inline(__always)
  func startField(_ key: String) {
    if count == 0 { firstKey = key }
    count += 1
    MerkleHash.combine(string: key, into: &buffer)
  }

  /// Starts an element: a new run every 64.
  @inline(__always)
  func startElement() {
    if count > 0, count % MerkleHash.runLength == 0 { runStarts.append(buffer.words.count) }
    count += 1
  }

  /// A level whose words are written when this one finishes, at the current place.
  func nestedLevel(key: LevelKey) -> HashingEncoding {
    let child = pool.level(parent: self, key: key)
    pending.append((buffer.words.count, count - 1, child))
    return child
  }

  // MARK: Finishing

  /// The finished level's hash.
  func finish() throws -> Hashed {
    if let finished { return finished }
    let hashed = try finishing()
    finished = hashed
    return hashed
  }

  private func finishing() throws -> Hashed {
    if conflict { throw Irregular() }
    switch mode {
    case .none:
      objectWords = []
      return .container(head: 0x08, hash: Self.hash(head: 0x08, []), marker: false)
    case .single:
      return single
    case .keyed:
      if let enumPayload, count == 1, pending.count == 1, pending[0].child === enumPayload,
        buffer.words.count == pending[0].offset
      {
        _ = try enumPayload.finish()
        if let payload = enumPayload.objectWords, let name = firstKey {
          return enumCase(name: name, payload: payload, fieldCount: enumPayload.count)
        }
        return try object(words: spliced())
      }
      return try object(words: spliced())
    case .unkeyed:
      return try array(words: spliced())
    }
  }

  private func object(words: [UInt64]) -> Hashed {
    objectWords = words
    let head = MerkleHash.objectHead(fieldCount: count)
    return .container(head: head, hash: Self.hash(head: head, words), marker: false)
  }

  private func enumCase(name: String, payload: [UInt64], fieldCount: Int) -> Hashed {
    let head = 0x09 | UInt64(fieldCount) << 8
    var hasher = StableHasher()
    hasher.combine(head)
    MerkleHash.combine(string: name, into: &hasher)
    payload.withUnsafeBufferPointer { hasher.combine($0) }
    let marker =
      name == OptionalSomeMarker.caseName && fieldCount == 1
      && enumPayload?.firstKey == "_0"
    return .container(head: head, hash: hasher.finalize(), marker: marker)
  }

  private func array(words: [UInt64]) -> Hashed {
    let head = MerkleHash.arrayHead(count: count)
    guard count > MerkleHash.runLength else {
      return .container(head: head, hash: Self.hash(head: head, words), marker: false)
    }
    var hasher = StableHasher()
    hasher.combine(head)
    words.withUnsafeBufferPointer { words in
      var start = 0
      for end in runStarts + [words.count] {
        var run = StableHasher()
        run.combine(UnsafeBufferPointer(rebasing: words[start..<end]))
        hasher.combine(run.finalize())
        start = end
      }
    }
    return .container(head: head, hash: hasher.finalize(), marker: false)
  }

  /// The level's words with the pending levels' words in their places (and `runStarts`
  /// moved past them).
  private func spliced() throws -> [UInt64] {
    guard !pending.isEmpty else { return buffer.words }
    var words: [UInt64] = []
    var child = StableWordBuffer()
    var start = 0
    var inserted: [(element: Int, count: Int)] = []
    for (offset, element, level) in pending {
      words.append(contentsOf: buffer.words[start..<offset])
      child.words.removeAll(keepingCapacity: true)
      try level.finish().write(into: &child)
      words.append(contentsOf: child.words)
      inserted.append((element, child.words.count))
      start = offset
    }
    words.append(contentsOf: buffer.words[start...])
    for index in runStarts.indices {
      // Run `index + 1` starts at element 64 (index + 1); levels for earlier elements moved it.
      let firstElement = (index + 1) * MerkleHash.runLength
      runStarts[index] += inserted.reduce(0) { $1.element < firstElement ? $0 + $1.count : $0 }
    }
    return words
  }

  private static func hash(head: UInt64, _ words: [UInt64]) -> UInt64 {
    var hasher = StableHasher()
    hasher.combine(head)
    words.withUnsafeBufferPointer { hasher.combine($0) }
    return hasher.finalize()
  }

  // MARK: Values

  /// `encodeValue`, or the hash kept for the same bits at this place (the next field or
  /// element of this level) when the level has a memo. `key` is made only when the value is
  /// encoded (a reused hash needs none).
  @inline(__always)
  func memoized<T: Encodable>(_ value: T, key: @autoclosure () -> LevelKey) throws -> Hashed {
    guard let memo else { return try encodeValue(value, key: key(), memo: nil) }
    let place = memo.child(count)
    if let hashed = place.reuse(value) { return hashed }
    let hashed = try encodeValue(value, key: key(), memo: place)
    place.remember(value, hashed: hashed, pool: pool)
    return hashed
  }

  /// Encodes one value found at `key` below this level (as `TraceEncoding.encodeValue`);
  /// `memo` is the memo of its place, for the places below it.
  func encodeValue<T: Encodable>(_ value: T, key: LevelKey, memo: HashMemo? = nil) throws
    -> Hashed
  {
    // Read in place once `T` is checked: `as!` is a dynamic cast in generic code.
    if T.self == UUID.self { return .uuid(unsafeBitCast(value, to: UUID.self)) }
    if let leaf = TraceEncoding.leaf(value) { return .scalar(leaf) }
    let kind =
      memo?.encodingKind(of: value) ?? TypeKindCache.encodingKind(of: T.self, value: value)
    switch kind {
    case .reference where replacesClassInstances:
      return .scalar(.string(TraceEncoding.placeholderText(for: T.self)))
    case .reference, .plain:
      break
    case .optional:
      let optional = memo?.optionalCoding(of: T.self) ?? (T.self as? any OptionalCoding.Type)
      if let optional, withUnsafeBytes(of: value, { optional.isNone(at: $0.baseAddress!) }) {
        return .scalar(.null)
      }
      let encoded = try encodeChild(value, key: key, memo: memo)
      return encoded.needsOptionalMarker ? encoded.wrappedInOptionalMarker() : encoded
    case .set, .dictionary:
      // Sorted by their elements' JSON text: built as a tree by the tree encoder's own rules.
      let tree = TraceEncoding(
        parent: nil, key: nil, replacesClassInstances: replacesClassInstances)
      defer { tree.dismantle() }
      return Hashed(try tree.encodeValue(value, key: key.codingKey))
    }
    return try encodeChild(value, key: key, memo: memo)
  }

  private func encodeChild<T: Encodable>(_ value: T, key: LevelKey, memo: HashMemo?) throws
    -> Hashed
  {
    let child = pool.level(parent: self, key: key)
    child.memo = memo
    defer { pool.recycle(child) }
    try value.encode(to: child)
    return try child.finish()
  }

  // MARK: SingleValueEncodingContainer

  func encodeNil() throws { single = .scalar(.null) }
  func encode(_ value: Bool) throws { single = .scalar(.bool(value)) }
  func encode(_ value: String) throws { single = .scalar(.string(value)) }
  func encode(_ value: Double) throws { single = .scalar(.double(value)) }
  func encode(_ value: Float) throws { single = .scalar(.double(Double(value))) }
  func encode(_ value: Int) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: Int8) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: Int16) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: Int32) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: Int64) throws { single = .scalar(.int(value)) }
  func encode(_ value: UInt) throws { single = .scalar(.unsigned(UInt64(value))) }
  func encode(_ value: UInt8) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: UInt16) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: UInt32) throws { single = .scalar(.int(Int64(value))) }
  func encode(_ value: UInt64) throws { single = .scalar(.unsigned(value)) }
  func encode<T: Encodable>(_ value: T) throws { single = try memoized(value, key: .none) }
}

struct HashingKeyedEncoding<Key: CodingKey>: TraceLeafKeyedEncoding {
  let encoding: HashingEncoding

  var codingPath: [CodingKey] { encoding.codingPath }

  @inline(__always)
  private func append(_ key: Key, _ value: TraceValue) {
    encoding.startField(key.stringValue)
    MerkleHash.combineWords(value, into: &encoding.buffer)
  }

  mutating func appendLeaf(_ value: TraceValue, forKey key: Key) { append(key, value) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let hashed = try encoding.memoized(value, key: .coding(key))
    encoding.startField(key.stringValue)
    hashed.write(into: &encoding.buffer)
  }

  // `nil` is written as `null`, as `TraceKeyedEncoding` does.
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    let hashed = try encoding.memoized(value, key: .coding(key))
    encoding.startField(key.stringValue)
    hashed.write(into: &encoding.buffer)
  }

  private func nested(forKey key: CodingKey, name: String) -> HashingEncoding {
    encoding.startField(name)
    return encoding.nestedLevel(key: .coding(key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let name = key.stringValue
    let child = nested(forKey: key, name: name)
    if encoding.count == 1,
      EnumCaseDetector.isSynthesizedEnumPayload(outer: Key.self, nested: keyType, caseName: name)
    {
      encoding.enumPayload = child
    }
    return child.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    nested(forKey: key, name: key.stringValue).unkeyedContainer()
  }

  mutating func superEncoder() -> Encoder {
    nested(forKey: TraceCodingKey.superKey, name: "super")
  }

  mutating func superEncoder(forKey key: Key) -> Encoder {
    nested(forKey: key, name: key.stringValue)
  }
}

struct HashingUnkeyedEncoding: TraceLeafUnkeyedEncoding {
  let encoding: HashingEncoding

  var codingPath: [CodingKey] { encoding.codingPath }
  var count: Int { encoding.count }

  @inline(__always)
  private func append(_ value: TraceValue) {
    encoding.startElement()
    MerkleHash.combineWords(value, into: &encoding.buffer)
  }

  mutating func appendLeaf(_ value: TraceValue) { append(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let hashed = try encoding.memoized(value, key: .index(encoding.count))
    encoding.startElement()
    hashed.write(into: &encoding.buffer)
  }

  private func nested() -> HashingEncoding {
    let key = HashingEncoding.LevelKey.index(encoding.count)
    encoding.startElement()
    return encoding.nestedLevel(key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    nested().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
    nested().unkeyedContainer()
  }

  mutating func superEncoder() -> Encoder { nested() }
}

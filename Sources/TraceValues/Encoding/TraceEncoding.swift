#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `Encoder` behind `TraceValueEncoder`: one instance per coding level, which is also the
/// storage of that level (fields, elements or a single value). Containers are thin structs
/// that append to it. Nested containers are child instances whose result fills a placeholder
/// slot when the level is finished.
final class TraceEncoding: Encoder, SingleValueEncodingContainer {
  enum Mode {
    case none, single, keyed, unkeyed
  }

  // Runtime exclusivity checks on these properties were a seventh of encoding time; they are
  // only touched by the coding level that owns them, on one thread, never overlapping.
  let parent: TraceEncoding?
  let key: CodingKey?
  /// Whether values that hold class instances are written as a placeholder instead of being
  /// encoded (the root's setting, copied down).
  let replacesClassInstances: Bool
  /// The shared keyed containers of the encoding (the root's, copied down; nil: each level
  /// makes its own).
  let containers: KeyedContainerCache?
  @exclusivity(unchecked) var mode = Mode.none
  @exclusivity(unchecked) var single = TraceValue.null
  @exclusivity(unchecked) var fields: [TraceField] = []
  @exclusivity(unchecked) var elements: [TraceValue] = []
  /// The first slot (in `fields` or `elements`) that a nested container or super encoder fills
  /// in, then the others, in order (see `addPending`).
  @exclusivity(unchecked) var firstPending: (slot: Int, child: TraceEncoding)?
  @exclusivity(unchecked) var pending: [(slot: Int, child: TraceEncoding)] = []
  /// Set when the only nested container is a synthesized enum case's payload.
  @exclusivity(unchecked) var enumPayload: TraceEncoding?
  @exclusivity(unchecked) var conflict: String?
  /// On the root level: the paths where a placeholder replaced a value holding class
  /// instances.
  @exclusivity(unchecked) var replacedPaths: [TracePath] = []

  init(
    parent: TraceEncoding?, key: CodingKey?, replacesClassInstances: Bool = false,
    containers: KeyedContainerCache? = nil
  ) {
    self.parent = parent
    self.key = key
    self.replacesClassInstances = parent?.replacesClassInstances ?? replacesClassInstances
    self.containers = parent?.containers ?? containers
  }

  var codingPath: [CodingKey] {
    var path: [CodingKey] = []
    var level: TraceEncoding? = self
    while let current = level {
      if let key = current.key { path.append(key) }
      level = current.parent
    }
    return path.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private func enter(_ wanted: Mode) {
    if mode == wanted { return }
    if mode == .none {
      mode = wanted
      // One allocation up front instead of regrowing through 1, 2, 4, 8 elements.
      if wanted == .keyed { fields.reserveCapacity(8) }
      if wanted == .unkeyed { elements.reserveCapacity(8) }
    } else if conflict == nil {
      conflict = "asked for a \(wanted) container after a \(mode) container at the same level"
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    enter(.keyed)
    if let shared = containers?.bind(type, to: self) { return shared.container }
    return ownContainer(keyedBy: type)
  }

  /// A container of this level's own (no shared one free). Not inlined: the compiler looked
  /// the container's type up at the start of `container(keyedBy:)`, shared or not.
  @inline(never)
  private func ownContainer<Key: CodingKey>(keyedBy type: Key.Type)
    -> KeyedEncodingContainer<Key>
  {
    KeyedEncodingContainer(TraceKeyedEncoding<Key>(owner: self))
  }

  func unkeyedContainer() -> UnkeyedEncodingContainer {
    enter(.unkeyed)
    return TraceUnkeyedEncoding(encoding: self)
  }

  func singleValueContainer() -> SingleValueEncodingContainer {
    enter(.single)
    return self
  }

  /// Lets go of the nested levels. A nested level keeps its parent (for `codingPath`) while
  /// the parent keeps it in `pending`: without this, every level with a nested container
  /// would outlive the encoding (≈ 0.85 KB per recorded action with an enum payload).
  func dismantle() {
    if let (_, child) = firstPending {
      child.dismantle()
      firstPending = nil
    }
    if !pending.isEmpty {
      for (_, child) in pending { child.dismantle() }
      pending = []
    }
    enumPayload?.dismantle()
    enumPayload = nil
  }

  /// Notes a slot that `child` fills in when this level finishes. The first is kept apart
  /// from the list: most levels with one have only that one (a synthesized enum case's
  /// payload), and growing the list from empty, then freeing it, cost about 800 instructions
  /// an enum case encoded (callgrind).
  func addPending(slot: Int, child: TraceEncoding) {
    if firstPending == nil {
      firstPending = (slot, child)
    } else {
      pending.append((slot, child))
    }
  }

  /// The finished tree of this level.
  func finish() throws -> TraceValue {
    if let conflict {
      throw EncodingError.invalidValue(
        fields.isEmpty ? elements as Any : fields as Any,
        EncodingError.Context(codingPath: codingPath, debugDescription: "A value \(conflict)"))
    }
    switch mode {
    case .none:
      return .object([])
    case .single:
      return single
    case .keyed:
      if let (slot, child) = firstPending { fields[slot].value = try child.finish() }
      for (slot, child) in pending { fields[slot].value = try child.finish() }
      if let enumPayload, fields.count == 1, pending.isEmpty,
        firstPending?.child === enumPayload,
        case .object(let payload) = fields[0].value
      {
        return .enumCase(fields[0].key, payload)
      }
      return .object(fields)
    case .unkeyed:
      if let (slot, child) = firstPending { elements[slot] = try child.finish() }
      for (slot, child) in pending { elements[slot] = try child.finish() }
      return .array(elements)
    }
  }

  // MARK: Values

  /// Encodes one value found at `key` below this level.
  func encodeValue<T: Encodable>(_ value: T, key: CodingKey?) throws -> TraceValue {
    try encodeValue(value, key: key, writingInto: nil)
  }

  /// `encodeValue(value, key: nil)` on a root level (`TraceValueEncoder`'s) that nothing was
  /// written to yet: a value written through its own `encode(to:)` writes into this level,
  /// not into a level made below it for it alone. Both levels have no key, so the coding
  /// paths, and the tree, are the same; making the second level, and dismantling and freeing
  /// it, cost about 750 instructions an encoding (an action that missed the recorder's
  /// cache, an element encoded whole; callgrind).
  func encodeAsRoot<T: Encodable>(_ value: T) throws -> TraceValue {
    guard parent == nil, mode == .none, firstPending == nil else {
      return try encodeValue(value, key: nil)
    }
    return try encodeValue(value, key: nil, writingInto: self)
  }

  /// `encodeValue`, written into `level` (when given) where it would make a level below this
  /// one for `value`'s `encode(to:)`.
  @inline(__always)
  private func encodeValue<T: Encodable>(
    _ value: T, key: CodingKey?, writingInto level: TraceEncoding?
  ) throws -> TraceValue {
    if let leaf = Self.leaf(value) { return leaf }
    switch TypeKindCache.encodingKind(of: T.self, value: value) {
    case .reference where replacesClassInstances:
      return placeholder(for: T.self, key: key)
    case .reference:
      break
    case .optional:
      if let optional = value as? any OptionalCoding, optional.isNone { return .null }
      let encoded = try encodeChild(value, key: key)
      return OptionalSomeMarker.needsMarker(encoded) ? OptionalSomeMarker.wrap(encoded) : encoded
    case .set:
      guard let set = value as? any SortedSetEncoding else { break }
      let child = TraceEncoding(parent: self, key: key)
      defer { child.dismantle() }
      return try set.encodeSorted(with: child)
    case .dictionary:
      guard let dictionary = value as? any SortedDictionaryEncoding else { break }
      let child = TraceEncoding(parent: self, key: key)
      defer { child.dismantle() }
      return try dictionary.encodeSorted(with: child)
    case .plain:
      break
    }
    if let level { return try encode(value, in: level) }
    return try encodeChild(value, key: key)
  }

  /// The value when it is one this encoder writes itself rather than through its
  /// `encode(to:)`: `String`, `Int`, `Bool`, `Double`, `Date`, `UUID`, `Data`, a `URL` without a
  /// base. `HashingEncoding` asks the same, so both write these alike.
  @inline(__always)
  static func leaf<T: Encodable>(_ value: T) -> TraceValue? {
    // Exact-type checks on the metatype are cheap; they keep common leaves off the slow path.
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return .double(value as! Double) }
    // `Date` and `UUID` are read in place: `T` is checked to be the type, and `as!` would
    // be a dynamic cast where `T` is not known at compile time (a generic field).
    if T.self == Date.self {
      let seconds = unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate
      return DateText.text(seconds: seconds).map(TraceValue.string) ?? .double(seconds)
    }
    if T.self == UUID.self { return .string(UUIDText.string(unsafeBitCast(value, to: UUID.self))) }
    if T.self == Data.self { return .bytes([UInt8](value as! Data)) }
    if T.self == URL.self, (value as! URL).baseURL == nil {
      return .string((value as! URL).absoluteString)
    }
    return nil
  }

  /// The text written in place of a value of `type` that holds class instances.
  static func placeholderText(for type: Any.Type) -> String {
    let name = EnumCaseDetector.typeName(type)
    return type is AnyClass
      ? "<not recorded: \(name) is a class>" : "<not recorded: \(name) holds class instances>"
  }

  /// What stands for a value that holds class instances, without reading it: its type's
  /// name. The path is noted on the root.
  private func placeholder(for type: Any.Type, key: CodingKey?) -> TraceValue {
    var root = self
    while let parent = root.parent { root = parent }
    var components: [TracePath.Component] = []
    for codingKey in codingPath + (key.map { [$0] } ?? []) {
      if let index = codingKey.intValue, codingKey.stringValue.hasPrefix("Index ") {
        components.append(.index(index))
      } else {
        components.append(.key(codingKey.stringValue))
      }
    }
    root.replacedPaths.append(TracePath(components))
    return .string(Self.placeholderText(for: type))
  }

  func encodeChild<T: Encodable>(_ value: T, key: CodingKey?) throws -> TraceValue {
    try encode(value, in: TraceEncoding(parent: self, key: key))
  }

  /// `encodeChild(value, key: level.key)` for one of a batch of values at the same key:
  /// `level` is the level the previous value used, emptied and used again when nothing kept
  /// it (an `encode(to:)` that stored its encoder, a container or a nested level), else
  /// replaced by a new one. Allocating and freeing a level per value was about a tenth of
  /// encoding a small struct.
  func encodeChild<T: Encodable>(_ value: T, reusing level: inout TraceEncoding) throws
    -> TraceValue
  {
    if !isKnownUniquelyReferenced(&level) { level = TraceEncoding(parent: self, key: level.key) }
    let child = level
    defer { child.empty() }
    return try encode(value, in: child)
  }

  /// `value` encoded by `child`, a level below this one (or the root itself: see
  /// `encodeAsRoot`), which is dismantled after.
  @inline(__always)
  private func encode<T: Encodable>(_ value: T, in child: TraceEncoding) throws -> TraceValue {
    // The containers bound while `value` encodes are unbound when it returns or throws.
    let mark = containers?.boundCount ?? 0
    defer {
      containers?.unbind(downTo: mark)
      child.dismantle()
    }
    try value.encode(to: child)
    return try child.finish()
  }

  /// Puts a dismantled level back as it was made (for `encodeChild(_:reusing:)`).
  private func empty() {
    mode = .none
    single = .null
    fields = []
    elements = []
    conflict = nil
    replacedPaths = []
  }

  // MARK: SingleValueEncodingContainer

  func encodeNil() throws { single = .null }
  func encode(_ value: Bool) throws { single = .bool(value) }
  func encode(_ value: String) throws { single = .string(value) }
  func encode(_ value: Double) throws { single = .double(value) }
  func encode(_ value: Float) throws { single = .double(Double(value)) }
  func encode(_ value: Int) throws { single = .int(Int64(value)) }
  func encode(_ value: Int8) throws { single = .int(Int64(value)) }
  func encode(_ value: Int16) throws { single = .int(Int64(value)) }
  func encode(_ value: Int32) throws { single = .int(Int64(value)) }
  func encode(_ value: Int64) throws { single = .int(value) }
  func encode(_ value: UInt) throws { single = .unsigned(UInt64(value)) }
  func encode(_ value: UInt8) throws { single = .int(Int64(value)) }
  func encode(_ value: UInt16) throws { single = .int(Int64(value)) }
  func encode(_ value: UInt32) throws { single = .int(Int64(value)) }
  func encode(_ value: UInt64) throws { single = .unsigned(value) }
  func encode<T: Encodable>(_ value: T) throws { single = try encodeValue(value, key: nil) }
}

extension TraceValue {
  /// An unsigned integer: `.int` when it fits, `.uint` above `Int64.max`.
  @usableFromInline
  static func unsigned(_ value: UInt64) -> TraceValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }
}

struct TraceKeyedEncoding<Key: CodingKey>: TraceLeafKeyedEncoding {
  /// The level written to: `owner` for a container of its own, else the level bound to the
  /// shared container's slot (see `KeyedContainerCache`).
  private let owner: TraceEncoding?
  private let slot: KeyedContainerCache.Slot?

  init(owner: TraceEncoding) {
    self.owner = owner
    self.slot = nil
  }

  init(slot: KeyedContainerCache.Slot) {
    self.owner = nil
    self.slot = slot
  }

  var codingPath: [CodingKey] { (try? withLevel(\.codingPath)) ?? [] }

  @inline(__always)
  private func withLevel<R>(_ body: (TraceEncoding) throws -> R) throws -> R {
    if let owner { return try body(owner) }
    guard let level = slot?.level else {
      throw EncodingError.invalidValue(
        Key.self,
        EncodingError.Context(
          codingPath: [],
          debugDescription:
            "A keyed container of \(Key.self) was used after the value that asked for it "
            + "was encoded"))
    }
    return try level._withUnsafeGuaranteedRef(body)
  }

  /// The level for calls that cannot throw: once used up, a level of its own that no value
  /// reads (its `encode` calls throw, see `withLevel`).
  private func levelOrDetached() -> TraceEncoding {
    (try? withLevel { $0 }) ?? TraceEncoding(parent: nil, key: nil)
  }

  mutating func appendLeaf(_ value: TraceValue, forKey key: Key) throws {
    try withLevel { $0.fields.append(TraceField(key.stringValue, value)) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try withLevel { encoding in
      encoding.fields.append(TraceField(key.stringValue, try encoding.encodeValue(value, key: key)))
    }
  }

  // `nil` is written as `null`, not left out (see `TraceLeafKeyedEncoding`).
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    // Encoded as the optional it is, so `.some(nil)` of a nested optional keeps its marker.
    try withLevel { encoding in
      encoding.fields.append(TraceField(key.stringValue, try encoding.encodeValue(value, key: key)))
    }
  }

  private func nested(_ encoding: TraceEncoding, forKey key: CodingKey, name: String)
    -> TraceEncoding
  {
    let child = TraceEncoding(parent: encoding, key: key)
    encoding.fields.append(TraceField(name, .null))
    encoding.addPending(slot: encoding.fields.count - 1, child: child)
    return child
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let encoding = levelOrDetached()
    let name = key.stringValue
    let child = nested(encoding, forKey: key, name: name)
    if encoding.fields.count == 1,
      encoding.containers?.isSynthesizedEnumPayload(
        outer: Key.self, nested: keyType, caseName: name)
        ?? EnumCaseDetector.isSynthesizedEnumPayload(
          outer: Key.self, nested: keyType, caseName: name)
    {
      encoding.enumPayload = child
    }
    return child.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    nested(levelOrDetached(), forKey: key, name: key.stringValue).unkeyedContainer()
  }

  mutating func superEncoder() -> Encoder {
    nested(levelOrDetached(), forKey: TraceCodingKey.superKey, name: "super")
  }

  mutating func superEncoder(forKey key: Key) -> Encoder {
    nested(levelOrDetached(), forKey: key, name: key.stringValue)
  }
}

struct TraceUnkeyedEncoding: TraceLeafUnkeyedEncoding {
  let encoding: TraceEncoding

  var codingPath: [CodingKey] { encoding.codingPath }
  var count: Int { encoding.elements.count }

  @inline(__always)
  private func append(_ value: TraceValue) { encoding.elements.append(value) }

  mutating func appendLeaf(_ value: TraceValue) { append(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = TraceCodingKey(index: encoding.elements.count)
    append(try encoding.encodeValue(value, key: key))
  }

  private func nested() -> TraceEncoding {
    let key = TraceCodingKey(index: encoding.elements.count)
    let child = TraceEncoding(parent: encoding, key: key)
    encoding.elements.append(.null)
    encoding.addPending(slot: encoding.elements.count - 1, child: child)
    return child
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

/// Dictionaries encode with sorted keys: see `TraceValueEncoder`.
protocol SortedDictionaryEncoding {
  func encodeSorted(with encoding: TraceEncoding) throws -> TraceValue
}

extension Dictionary: SortedDictionaryEncoding where Key: Encodable, Value: Encodable {
  func encodeSorted(with encoding: TraceEncoding) throws -> TraceValue {
    if Key.self == String.self {
      var fields: [TraceField] = []
      fields.reserveCapacity(count)
      for (key, value) in self {
        let name = key as! String
        let codingKey = TraceCodingKey(stringValue: name)
        fields.append(TraceField(name, try encoding.encodeValue(value, key: codingKey)))
      }
      fields.sort { $0.key < $1.key }
      return .object(fields)
    }
    if Key.self == Int.self {
      var entries: [(Int, TraceValue)] = []
      entries.reserveCapacity(count)
      for (key, value) in self {
        let number = key as! Int
        let codingKey = TraceCodingKey(intValue: number)
        entries.append((number, try encoding.encodeValue(value, key: codingKey)))
      }
      entries.sort { $0.0 < $1.0 }
      return .object(entries.map { TraceField(String($0.0), $0.1) })
    }
    if Key.self is any CodingKeyRepresentable.Type {
      var fields: [TraceField] = []
      fields.reserveCapacity(count)
      for (key, value) in self {
        let codingKey = (key as! any CodingKeyRepresentable).codingKey
        let name = codingKey.stringValue
        fields.append(TraceField(name, try encoding.encodeValue(value, key: codingKey)))
      }
      fields.sort { $0.key < $1.key }
      return .object(fields)
    }
    // Any other key: Dictionary's own shape, [key, value, key, value, …], sorted by the keys'
    // JSON text (distinct values have distinct JSON, so the order is total).
    var entries: [(sortKey: [UInt8], key: TraceValue, value: TraceValue)] = []
    entries.reserveCapacity(count)
    for (key, value) in self {
      let index = entries.count * 2
      let encodedKey = try encoding.encodeValue(key, key: TraceCodingKey(index: index))
      let encodedValue = try encoding.encodeValue(value, key: TraceCodingKey(index: index + 1))
      var sortKey: [UInt8] = []
      encodedKey.writeJSON(into: &sortKey)
      entries.append((sortKey, encodedKey, encodedValue))
    }
    entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
    var elements: [TraceValue] = []
    elements.reserveCapacity(entries.count * 2)
    for entry in entries {
      elements.append(entry.key)
      elements.append(entry.value)
    }
    return .array(elements)
  }
}

/// Sets encode as arrays sorted by each element's JSON text: like a dictionary's, a set's
/// iteration order changes from process to process.
protocol SortedSetEncoding {
  func encodeSorted(with encoding: TraceEncoding) throws -> TraceValue
}

extension Set: SortedSetEncoding where Element: Encodable {
  func encodeSorted(with encoding: TraceEncoding) throws -> TraceValue {
    var entries: [(sortKey: [UInt8], value: TraceValue)] = []
    entries.reserveCapacity(count)
    for element in self {
      let encoded = try encoding.encodeValue(element, key: TraceCodingKey(index: entries.count))
      var sortKey: [UInt8] = []
      encoded.writeJSON(into: &sortKey)
      entries.append((sortKey, encoded))
    }
    entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
    return .array(entries.map(\.value))
  }
}

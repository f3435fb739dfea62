import TraceKit

/// An `Encoder` for one level of a state: every field goes through `add`. A field that is a
/// struct (see `TraceValueEncoder.encodesFieldByField`) and changed is walked by a walker of
/// its own, with that field's cached fields, so an unchanged part is not encoded again however
/// deep it is, and a changed leaf re-encodes only its path.
///
/// A walker knows where its level is in the state (`path`): the changes and paths of its
/// fields are made whole where they are found, and each level above takes them as they are
/// (moving them under each level's key cost two arrays and a path per change and level).
final class FieldWalker: Encoder {
  struct Unsupported: Error {}

  enum Mode { case none, keyed }

  var codingPath: [CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  // One thread walks a walker, and no call re-enters these while it changes them: the dynamic
  // exclusivity checks of a class's stored properties cost more than a small field. Idle
  // walkers are reused (see `WalkedTypes.walker`).
  @exclusivity(unchecked) var mode = Mode.none
  @exclusivity(unchecked) var fields: [FieldCache] = []
  @exclusivity(unchecked) private var previousFields: [FieldCache]
  /// Not retained: the `WalkedTypes` keeps its idle walkers, and a walker walks only inside a
  /// walk of the writer that owns both.
  private unowned(unsafe) let types: WalkedTypes
  /// Whether an identified-array field stages its changed elements (see
  /// `FieldCache.applyStagedElements`): at the top level and in the structs walked below it,
  /// whose fields the encoder applies them through.
  @exclusivity(unchecked) private var stagesElements: Bool
  /// Where the walked level is in the state: the components of its fields' paths before their
  /// keys (empty at the top level).
  @exclusivity(unchecked) private var path: [TracePath.Component]
  @exclusivity(unchecked) private var failed = false
  /// Whether the value asked for a single-value container (see `SingleFieldWalker`).
  @exclusivity(unchecked) private var askedForSingleValue = false
  /// Whether an identified-array field staged elements this walk.
  @exclusivity(unchecked) private(set) var stagedElements = false
  /// Whether every field so far found its previous encoding at its own position (see
  /// `previousIndex`): then the level has its previous keys in their order once it has as many
  /// fields (see `keepsKeys`).
  @exclusivity(unchecked) private var inOrder = true
  /// Where the keyed container this walker handed out finds it (see `KeyedContainers`), and
  /// those of other key types when its value asked for more than one. Not retained: the
  /// `KeyedContainers` keeps its slots.
  @exclusivity(unchecked) private var slot: Unmanaged<KeyedContainers.Slot>?
  @exclusivity(unchecked) private var otherSlots: [Unmanaged<KeyedContainers.Slot>] = []

  /// `buffer`: an empty array whose storage the walk's fields go into (taken: empty after).
  init(
    cache: [FieldCache], types: WalkedTypes, stagesElements: Bool = false,
    path: [TracePath.Component] = [], buffer: inout [FieldCache]
  ) {
    previousFields = cache
    self.types = types
    self.stagesElements = stagesElements
    self.path = path
    swap(&fields, &buffer)
    fields.reserveCapacity(cache.count)
  }

  /// Readies an idle walker for a walk over `cache` (see `WalkedTypes.walker`), its fields
  /// going into `buffer`'s storage (see `init`).
  func begin(
    cache: [FieldCache], stagesElements: Bool, path: [TracePath.Component],
    buffer: inout [FieldCache]
  ) {
    previousFields = cache
    self.stagesElements = stagesElements
    self.path = path
    mode = .none
    failed = false
    askedForSingleValue = false
    stagedElements = false
    inOrder = true
    swap(&fields, &buffer)
    fields.reserveCapacity(cache.count)
  }

  /// Whether the fields walked have the keys of the previous fields, in their order, known
  /// from how each was found: comparing the keys again, by index, cost about 30 instructions a
  /// field, for the top level every step and for each changed level.
  var keepsKeys: Bool { inOrder && fields.count == previousFields.count }

  /// The fields walked, taken out of the walker (which holds none after).
  func takeFields() -> [FieldCache] {
    defer { fields = [] }
    return fields
  }

  /// Ends a walk: its containers let go of it, and it lets go of the previous fields and of
  /// any it walked, so that it can wait idle.
  func end() {
    unbind()
    slot = nil
    if !otherSlots.isEmpty { otherSlots.removeAll(keepingCapacity: true) }
    previousFields = []
    fields = []
    path = []
  }

  /// The field's previous encoding: fields come in the same order step after step, so the
  /// one at the same position is checked first.
  private func previousIndex(_ key: String) -> Int? {
    let position = fields.count
    if position < previousFields.count, previousFields[position].key == key {
      return position
    }
    inOrder = false
    return previousFields.firstIndex { $0.key == key }
  }

  /// Keeps the previous encoding of a field that did not change: its entry, not its edits.
  private func keep(_ index: Int) {
    fields.append(previousFields[index].kept)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if mode == .none { mode = .keyed }
    let (container, slot) = types.containers.container(keyedBy: type, for: self)
    if let first = self.slot {
      if first.toOpaque() != slot.toOpaque(),
        !otherSlots.contains(where: { $0.toOpaque() == slot.toOpaque() })
      {
        otherSlots.append(slot)
      }
    } else {
      self.slot = slot
    }
    return container
  }

  /// Walks a field's value with walkers of its own, then binds the containers of `walker`
  /// (the walker the field belongs to, if any) to it again, thrown or not: the value may have
  /// the same key type (see `KeyedContainers`).
  private static func nested<Result>(
    in walker: FieldWalker?, _ body: () throws -> Result
  ) rethrows -> Result {
    defer {
      if let walker, let slot = walker.slot {
        walker.types.containers.bind(slot, to: walker)
        for other in walker.otherSlots { walker.types.containers.bind(other, to: walker) }
      }
    }
    return try body()
  }

  /// Lets go of this walker's containers once its walk ended (see `KeyedContainers`).
  private func unbind() {
    slot?._withUnsafeGuaranteedRef { $0.walker = nil }
    for other in otherSlots { other._withUnsafeGuaranteedRef { $0.walker = nil } }
  }

  func unkeyedContainer() -> UnkeyedEncodingContainer {
    failed = true
    return FailingUnkeyed()
  }

  func singleValueContainer() -> SingleValueEncodingContainer {
    failed = true
    askedForSingleValue = true
    return FailingSingle()
  }

  func add(_ key: String, leaf value: TraceValue) throws {
    try check()
    let index = previousIndex(key)
    var edits: FieldCache.Edits?
    if let index {
      if case .tree(let previous) = previousFields[index].encoding, Self.same(previous, value) {
        keep(index)
        return
      }
      // A scalar (or null) on one side at least: the field changed as a whole.
      assert(previousFields[index].path == Self.components(self.path, key))
      let path = TracePath(previousFields[index].path)
      edits = FieldCache.Edits(changes: [.set(path, value)], paths: [path])
    }
    let hashedKey = index.map { previousFields[$0].hashedKey } ?? MerkleHash.Key(key)
    let path = index.map { previousFields[$0].path } ?? Self.components(self.path, key)
    fields.append(
      FieldCache(
        key: hashedKey, path: path, swiftValue: ValueBox.none, value: value, edits: edits))
  }

  /// `previous == value` for a leaf and the tree its field had, with the leaves this walker's
  /// container writes most compared in place: an int, a bool, `null`, and a string with the
  /// same bits (the same storage or the same small string, so the same UTF-8 bytes). The call
  /// to `TraceValue.==` copied both values into a pair first. A case other than the previous
  /// one is unequal there too.
  @inline(__always)
  private static func same(_ previous: TraceValue, _ value: TraceValue) -> Bool {
    switch value {
    case .int(let new): if case .int(let old) = previous { old == new } else { false }
    case .bool(let new): if case .bool(let old) = previous { old == new } else { false }
    case .null: if case .null = previous { true } else { false }
    case .string(let new):
      if case .string(let old) = previous {
        sameBits(old, new) || previous == value
      } else {
        false
      }
    default: previous == value
    }
  }

  func add<T: Encodable>(_ key: String, _ value: T) throws {
    try check()
    let index = previousIndex(key)
    if let index, previousFields[index].swiftValue.holdsSameBits(as: value) {
      keep(index)
      return
    }
    let old = index.map { previousFields[$0] }
    let (field, staged) = try Self.field(
      key, value, old: old, oldBox: nil, at: path, types: types, staging: stagesElements,
      in: self)
    fields.append(field)
    if staged { stagedElements = true }
  }

  /// The field of `value` under `key`, which differs from its previous encoding `old` (nil
  /// for a new field): as `add` makes it, and as `SingleFieldWalker` makes the one field a
  /// wrapper writes, without a walker of its own. `oldBox`, when given, is the Swift value
  /// `old` was compared by in place of its own (the value a previous wrapper wrapped: see
  /// `AnyValueBox.inner`). `prefix`: the path of the level the field is in (see `path`).
  /// `staged`: whether an identified array staged its elements.
  static func field<T: Encodable>(
    _ key: String, _ value: T, old: FieldCache?, oldBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes, staging: Bool, in walker: FieldWalker?
  ) throws -> (field: FieldCache, staged: Bool) {
    let kind = types.kind(of: value)
    if kind == .elements, let elements = types.elementsType(of: T.self) {
      let previous = old.map { old in oldBox.map { old.kept(boxedIn: $0) } ?? old }
      // Its edits are made under the level's path and its key. Its changed elements may be
      // walked by walkers of their own (see `walkElement`).
      let field = try nested(in: walker) {
        try encodeIncrementally(
          value, as: elements, key: key, previous: previous, staging: staging, at: prefix,
          types: types)
      }
      return (field, staging)
    }
    if kind == .walked,
      let walked = try nested(
        in: walker,
        {
          try walk(
            key, value, old: old, oldBox: oldBox, at: prefix, types: types, staging: staging)
        })
    {
      return walked
    }
    if kind == .wrapper, let wrapper = types.wrapperType(of: T.self),
      let wrapped = try nested(
        in: walker,
        {
          try wrapperField(
            of: value, as: wrapper, key: key, old: old, oldBox: oldBox, at: prefix, types: types)
        })
    {
      return (wrapped, false)
    }
    if kind == .single,
      let single = try nested(
        in: walker,
        { try passThrough(key, value, old: old, oldBox: oldBox, at: prefix, types: types) })
    {
      return (single, false)
    }
    let (encoded, replaced) = try TraceValueEncoder().encodeReplacingClassInstances(value)
    let path = fieldPath(key, at: prefix, old: old)
    var edits = FieldCache.Edits(replaced: replaced.map { $0.prefixed(by: path) })
    if let old {
      (edits.changes, edits.paths) = TraceDiff.whole(at: path, from: old.value, to: encoded)
    }
    let field = FieldCache(
      key: old?.hashedKey ?? MerkleHash.Key(key), path: path,
      swiftValue: box(value, like: oldBox ?? old?.swiftValue, types: types),
      value: encoded, edits: edits.orNil)
    return (field, false)
  }

  /// The field encoded field by field by a walker of its own; nil (and the type is not walked
  /// again) when its `encode(to:)` writes anything but one keyed container of leaves and
  /// values. `staged`: whether an identified array inside it staged its elements (with
  /// `staging`).
  private static func walk<T: Encodable>(
    _ key: String, _ value: T, old: FieldCache?, oldBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes, staging: Bool
  ) throws -> (field: FieldCache, staged: Bool)? {
    let cached = old?.fields
    let path = fieldPath(key, at: prefix, old: old)
    switch try walkLevel(value, over: cached, at: path, types: types, staging: staging) {
    case .singleValue:
      types.writesSingleValue(T.self)
      return try passThrough(
        key, value, old: old, oldBox: oldBox, at: prefix, types: types
      ).map { ($0, false) }
    case .unsupported:
      types.cannotWalk(T.self)
      return nil
    case .fields(var children, var staged, let keepsKeys):
      let edits = levelEdits(
        &children, staged: &staged, keepsKeys: keepsKeys, cached: cached,
        old: old.map { $0.value }, at: path)
      let field = FieldCache(
        key: old?.hashedKey ?? MerkleHash.Key(key), path: path,
        swiftValue: box(value, like: oldBox ?? old?.swiftValue, types: types),
        fields: children, edits: edits.orNil, staged: staged)
      return (field, staged)
    }
  }

  /// An element of an identified array that changed, walked field by field as a struct field
  /// is (see `walk`): `cached`, the fields its previous walk kept, or nil when it has none, and
  /// then the fields of `old`, its previous tree (an object), each compared by its encoding
  /// (a leaf keeps its tree when equal; any other field is encoded again and found unchanged,
  /// and keeps its Swift value for the next walk). Its changes are made under `path` (the
  /// array's path and the element's component). Its identified arrays, if any, set their
  /// elements (no staging).
  ///
  /// nil, and the caller encodes the element whole, when its `encode(to:)` wrote anything but
  /// one keyed container of leaves and values (the type is then not walked again).
  static func walkElement<T: Encodable>(
    _ value: T, over cached: [FieldCache]?, old: TraceValue, at path: [TracePath.Component],
    types: WalkedTypes
  ) throws -> (fields: [FieldCache], edits: FieldCache.Edits)? {
    let previous = cached ?? fields(of: old, at: path)
    switch try walkLevel(value, over: previous, at: path, types: types, staging: false) {
    case .singleValue:
      types.writesSingleValue(T.self)
      return nil
    case .unsupported:
      types.cannotWalk(T.self)
      return nil
    case .fields(var children, var staged, let keepsKeys):
      let edits = levelEdits(
        &children, staged: &staged, keepsKeys: keepsKeys, cached: previous, old: old, at: path)
      return (children, edits)
    }
  }

  /// The fields of `tree` (an object: none otherwise) as a walk's previous fields, for the
  /// level at `path`: their encodings, with no Swift value to compare (see `ValueBox.none`).
  private static func fields(of tree: TraceValue, at path: [TracePath.Component])
    -> [FieldCache]
  {
    guard case .object(let fields) = tree else { return [] }
    return fields.map { field in
      FieldCache(
        key: MerkleHash.Key(field.key), path: components(path, field.key),
        swiftValue: ValueBox.none, value: field.value)
    }
  }

  /// What a value's own `encode(to:)` wrote to a walker (see `walkLevel`).
  private enum WalkedLevel {
    /// One keyed container of leaves and values: its fields, whether an identified array
    /// among them staged its elements, and whether they have the previous fields' keys in
    /// their order (see `FieldWalker.keepsKeys`).
    case fields([FieldCache], staged: Bool, keepsKeys: Bool)
    /// A single value and nothing else.
    case singleValue
    /// Anything else.
    case unsupported
  }

  /// `value` walked by a walker of its own over `cached`, its previous fields (nil: none), at
  /// `path`.
  private static func walkLevel<T: Encodable>(
    _ value: T, over cached: [FieldCache]?, at path: [TracePath.Component],
    types: WalkedTypes, staging: Bool
  ) throws -> WalkedLevel {
    let walker = types.walker(over: cached ?? [], stagesElements: staging, path: path)
    defer { types.recycle(walker) }
    var unsupported = false
    do {
      try value.encode(to: walker)
    } catch is Unsupported {
      unsupported = true
    }
    if walker.askedForSingleValue, walker.mode == .none {
      return .singleValue
    }
    guard !unsupported, walker.mode == .keyed, !walker.failed else {
      return .unsupported
    }
    let keepsKeys = walker.keepsKeys
    return .fields(walker.takeFields(), staged: walker.stagedElements, keepsKeys: keepsKeys)
  }

  /// The edits of a level walked at `path`: its children's, moved up (not copied: see
  /// `FieldCache.takeEdits`), when they have the keys of `cached` (its previous fields, which
  /// the walk went over: `keepsKeys` says whether they do); else the whole diff from `old`
  /// (nil: no previous encoding), after the staged elements went in.
  private static func levelEdits(
    _ children: inout [FieldCache], staged: inout Bool, keepsKeys: Bool,
    cached: [FieldCache]?, old: @autoclosure () -> TraceValue?,
    at path: [TracePath.Component]
  ) -> FieldCache.Edits {
    var edits = FieldCache.Edits()
    // `cached` is nil without a previous encoding, or when it was not an object.
    let adopts = cached != nil && keepsKeys
    for index in children.indices where children[index].edits != nil {
      var child = children[index].takeEdits()!
      edits.replaced.append(taking: &child.replaced)
      if adopts {
        edits.changes.append(taking: &child.changes)
        edits.paths.append(taking: &child.paths)
      }
    }
    if !adopts, let old = old() {
      // The whole diff reads the children's trees: staged elements go in first (copying
      // their runs, which the previous step still shares; a level's keys seldom change).
      if staged {
        for index in children.indices { children[index].applyStagedElements() }
        staged = false
      }
      (edits.changes, edits.paths) = TraceDiff.whole(
        at: path, from: old, to: FieldCache.objectValue(children))
    }
    return edits
  }

  /// The field of a value that writes one single value (a wrapper such as a property wrapper's
  /// whose `encode(to:)` the writer does not know: see `WalkedWrapper` for those it does): the
  /// field of what it wraps, under the same key (see `SingleFieldWalker`), its Swift value kept
  /// around the wrapped one's for the next step. nil (the caller encodes it whole) when the value
  /// wrote anything else.
  private static func passThrough<T: Encodable>(
    _ key: String, _ value: T, old: FieldCache?, oldBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache? {
    try wrapperField(value, old: old, oldBox: oldBox, types: types) { wrappedBox in
      let single = types.singleWalker(
        key: key, previous: old, previousBox: wrappedBox, prefix: prefix)
      defer { types.recycle(single) }
      do {
        try value.encode(to: single)
      } catch is Unsupported {
        return nil
      }
      return single.takeResult()
    }
  }

  /// `value` (an `Elements`) encoded by `Elements.encodeIncrementally`, read in place.
  private static func encodeIncrementally<T, Elements: IncrementalElements>(
    _ value: T, as elements: Elements.Type, key: String, previous: FieldCache?, staging: Bool,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache {
    try withUnsafePointer(to: value) {
      try Elements.encodeIncrementally(
        at: UnsafeRawPointer($0), type: ObjectIdentifier(T.self), key: key, previous: previous,
        staging: staging, in: prefix, types: types)
    }
  }

  /// The field of a `WalkedWrapper`'s `value` (`wrapper` is its type: `T`), read without its
  /// `encode(to:)`: the field of what it wraps, read in place, with `value` kept around it for
  /// the next step. Boxed here, where `T` is known: boxed by the wrapper's own code, a
  /// presentation looked its type and its conformance up (about 130 instructions a walk).
  private static func wrapperField<T, Wrapper: WalkedWrapper>(
    of value: T, as wrapper: Wrapper.Type, key: String, old: FieldCache?, oldBox: AnyValueBox?,
    at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache? {
    try wrapperField(value, old: old, oldBox: oldBox, types: types) { wrappedBox in
      try withUnsafePointer(to: value) {
        try Wrapper.wrappedField(
          in: UnsafeRawPointer($0), key: key, old: old, wrappedBox: wrappedBox, at: prefix,
          types: types)
      }
    }
  }

  /// The field of `value`, a wrapper, from the field of what it wraps: `wrapped` makes that
  /// (nil: the caller encodes the wrapper whole) given the Swift value the previous value
  /// wrapped (or, without one, the previous value's), to compare it with; the wrapper's own is
  /// kept around the wrapped one's for the next step (see `AnyValueBox.inner`).
  static func wrapperField<T>(
    _ value: T, old: FieldCache?, oldBox: AnyValueBox?, types: WalkedTypes,
    wrapped: (AnyValueBox?) throws -> FieldCache?
  ) rethrows -> FieldCache? {
    let wrappedBox = old.flatMap { old in (oldBox ?? old.swiftValue).inner } ?? oldBox
    guard var field = try wrapped(wrappedBox) else { return nil }
    field.rebox(
      in: box(value, inner: field.swiftValue, like: oldBox ?? old?.swiftValue, types: types))
    return field
  }

  /// The value kept for the next step's comparison, with the bytes that comparison reads:
  /// made like `previous` (the box of the value it replaces) when that holds a `T` too, which
  /// saves looking up both the bytes and the box's type (see `AnyValueBox.sibling`).
  static func box<T>(
    _ value: T, inner: AnyValueBox? = nil, like previous: AnyValueBox?, types: WalkedTypes
  ) -> AnyValueBox {
    if let previous, previous.holds(T.self) {
      return previous.sibling(holding: value, inner: inner)
    }
    return types.box(value, inner: inner)
  }

  /// Whether `TraceValueEncoder` marks an optional holding `value` as `Optional.some`: when the
  /// value is `null` or is itself so marked, so that nested optionals decode back exactly.
  static func marksOptional(_ value: TraceValue) -> Bool {
    switch value {
    case .null: true
    case .enumCase("Optional.some", let fields): fields.count == 1 && fields[0].key == "_0"
    default: false
    }
  }

  /// The path of the field `key` in the level at `prefix`: that of its previous encoding
  /// `old` when there is one (the same field of the same level: see `FieldCache.Entry.path`).
  static func fieldPath(
    _ key: String, at prefix: [TracePath.Component], old: FieldCache?
  ) -> [TracePath.Component] {
    guard let old else { return components(prefix, key) }
    assert(old.path == components(prefix, key), "a field's path changed: \(old.path)")
    return old.path
  }

  /// The components of the path of the field `key` in the level at `prefix`: one array.
  static func components(_ prefix: [TracePath.Component], _ key: String)
    -> [TracePath.Component]
  {
    var components: [TracePath.Component] = []
    components.reserveCapacity(prefix.count + 1)
    components.append(contentsOf: prefix)
    components.append(.key(key))
    return components
  }

  func check() throws {
    if failed { throw Unsupported() }
  }

  func fail() throws -> Never {
    failed = true
    throw Unsupported()
  }
}

/// The keyed container of a `FieldWalker`: its calls go to the walker its slot is bound to
/// (see `KeyedContainers`), and throw `FieldWalker.Unsupported` when none is.
struct FieldContainer<Key: CodingKey>: TraceLeafKeyedEncoding {
  let slot: KeyedContainers.Slot
  var codingPath: [CodingKey] { [] }

  /// The bound walker, neither retained nor released (see `KeyedContainers.Slot`).
  @inline(__always)
  private func add(_ key: Key, leaf value: TraceValue) throws {
    guard let walker = slot.walker else { throw FieldWalker.Unsupported() }
    try walker._withUnsafeGuaranteedRef { try $0.add(key.stringValue, leaf: value) }
  }

  private func fail() {
    slot.walker?._withUnsafeGuaranteedRef { walker in _ = try? walker.fail() }
  }

  mutating func appendLeaf(_ value: TraceValue, forKey key: Key) throws {
    try add(key, leaf: value)
  }
  // The scalars are written here rather than taken from `TraceLeafKeyedEncoding`: through
  // its extension each went through the witness of `appendLeaf`, 400 instructions a counter
  // step more on the writer's busiest thread (callgrind). Same leaves: `unsigned` is the rule
  // of `TraceValue.unsigned`.
  mutating func encodeNil(forKey key: Key) throws {
    try add(key, leaf: .null)
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try add(key, leaf: .bool(value))
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try add(key, leaf: .string(value))
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try add(key, leaf: .double(value))
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try add(key, leaf: .double(Double(value)))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try add(key, leaf: .int(value))
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try add(key, leaf: unsigned(UInt64(value)))
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try add(key, leaf: .int(Int64(value)))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try add(key, leaf: unsigned(value))
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard let walker = slot.walker else { throw FieldWalker.Unsupported() }
    try walker._withUnsafeGuaranteedRef { try $0.add(key.stringValue, value) }
  }

  // The scalars' optionals as `TraceLeafKeyedEncoding` writes them (`nil` as `null`), written
  // here for the reason the scalars are: through its extension, each looked this container's
  // conformance to it up (`swift_getWitnessTable`, about 120 instructions a field).
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  // `nil` is `null`, as `TraceValueEncoder` writes it (see `TraceLeafKeyedEncoding`): the leaf,
  // as for the scalars' optionals, so that an absent value does not look `Optional<T>` up in
  // the runtime's metadata cache to be compared as a Swift value (about 390 instructions a
  // field a step in unspecialized code). A value present is compared and walked as before.
  // `== nil` reads the optional's tag in place through `T`'s witnesses: a `case .some` pattern
  // copied the optional first, which looked `Optional<T>` up too (about 350 instructions).
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    guard let walker = slot.walker else { throw FieldWalker.Unsupported() }
    if value == nil {
      try walker._withUnsafeGuaranteedRef { try $0.add(key.stringValue, leaf: .null) }
      return
    }
    try walker._withUnsafeGuaranteedRef { try $0.add(key.stringValue, value) }
  }

  private func unsigned(_ value: UInt64) -> TraceValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  // Nested containers (hand-written encoders, enums at the top level): the whole state is
  // encoded by `TraceValueEncoder` instead.
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    fail()
    return KeyedEncodingContainer(FailingKeyed<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    fail()
    return FailingUnkeyed()
  }
  mutating func superEncoder() -> Encoder {
    fail()
    return FailingEncoder()
  }
  mutating func superEncoder(forKey key: Key) -> Encoder {
    fail()
    return FailingEncoder()
  }
}

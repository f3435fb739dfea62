import TraceKit

/// One field as last encoded: its Swift value (for comparison), its encoding and, when that is
/// a container, its stable hash (so an unchanged field is not hashed again).
///
/// All but the step's edits live in a shared `Entry`: a field kept from one step to the next
/// is one retain, and dropping the previous step's fields one release each (a struct of the
/// same parts cost about ten reference counts and an outlined copy per kept field).
struct FieldCache {
  enum Encoding {
    case tree(TraceValue)
    /// An `IdentifiedArray` field, kept in runs (see `ElementCache`).
    case elements(ElementCache)
    /// A struct encoded field by field (see `FieldWalker`): an unchanged field of it keeps its
    /// encoding, however deep.
    case object([FieldCache])
  }

  /// What a field's encoding is, shared by every step that keeps the field. Changed only by
  /// `applyStagedElements` (in place only while one cache holds it) and by `writeJSON`, which
  /// keeps the JSON it wrote for an identified array's elements (the same encoding).
  final class Entry {
    /// The key with the words its level's hash writes for it (see `MerkleHash.Key`): made
    /// when the field first appears and passed on to every entry made for it after.
    let hashedKey: MerkleHash.Key
    var key: String { hashedKey.string }
    /// The field's path in the state (its level's path and its key), made, like `hashedKey`,
    /// when the field first appears and passed on to every entry made for it after: a change
    /// of the field, and the walk of a struct's fields, take it instead of building it.
    let path: [TracePath.Component]
    // The writer's thread alone uses an entry: no dynamic exclusivity checks.
    /// The Swift value in a `ValueBox` (read back with `unsafeValue(as:)`: no cast). Changed
    /// only by `rebox`, while one cache holds the entry.
    @exclusivity(unchecked) var swiftValue: AnyValueBox
    @exclusivity(unchecked) var encoding: Encoding {
      didSet { (head, scalar) = Self.words(of: encoding) }
    }
    @exclusivity(unchecked) var hash: UInt64?
    /// The head word the level's hash writes before `hash` when the encoding is a container
    /// (`MerkleHash.head`: its kind and count), 0 for a scalar: kept so that hashing a level
    /// reads two words of each container field instead of copying its encoding out.
    @exclusivity(unchecked) private(set) var head: UInt64
    /// The words the level's hash writes for a scalar encoding, when they are few (see
    /// `MerkleHash.ScalarWords`): hashing the level again does not copy the tree out.
    @exclusivity(unchecked) private(set) var scalar: MerkleHash.ScalarWords
    /// Whether an identified array among the fields of this struct (at any depth) staged
    /// elements that `applyStagedElements` has not applied yet: the hash waits for them too.
    @exclusivity(unchecked) var stagedBelow = false

    init(
      key: MerkleHash.Key, path: [TracePath.Component], swiftValue: AnyValueBox,
      encoding: Encoding, hash: UInt64?
    ) {
      hashedKey = key
      self.path = path
      self.swiftValue = swiftValue
      self.encoding = encoding
      self.hash = hash
      (head, scalar) = Self.words(of: encoding)
    }

    /// `head` and `scalar` for `encoding`.
    private static func words(of encoding: Encoding) -> (UInt64, MerkleHash.ScalarWords) {
      switch encoding {
      case .tree(let value): (MerkleHash.head(value), MerkleHash.ScalarWords(value))
      case .elements(let elements):
        (MerkleHash.arrayHead(count: elements.count), MerkleHash.ScalarWords())
      case .object(let fields):
        (MerkleHash.objectHead(fieldCount: fields.count), MerkleHash.ScalarWords())
      }
    }

    /// Adds this field to its object's hash: a container from its head word and cached hash,
    /// without reading its encoding (a copy of it cost a retain and a release, and an outlined
    /// copy, per field hashed); a scalar from its tree.
    @inline(__always)
    func combine(into object: inout MerkleHash.ObjectHasher) {
      if head != 0, let hash {
        object.add(key: hashedKey, head: head, hash: hash)
      } else if scalar.isKnown {
        object.add(key: hashedKey, scalar: scalar)
      } else if case .tree(let value) = encoding {
        object.add(key: hashedKey, value: value, hash: hash)
      } else {
        // A struct whose staged elements are not applied yet (see `stagedBelow`).
        object.add(key: hashedKey, head: head, hash: hash ?? 0)
      }
    }
  }

  private var entry: Entry
  /// What the field's encoding changed in the step that produced it; nil for nothing (most
  /// fields, most steps).
  var edits: Edits?

  var key: String { entry.key }
  /// The field's path in the state (see `Entry.path`).
  var path: [TracePath.Component] { entry.path }
  /// The key with its hash words (see `Entry.hashedKey`).
  var hashedKey: MerkleHash.Key { entry.hashedKey }
  /// The Swift value in a `ValueBox` (read back with `unsafeValue(as:)`: no cast).
  var swiftValue: AnyValueBox { entry.swiftValue }
  var encoding: Encoding { entry.encoding }
  /// The encoding's stable hash when it is a container; `nil` for a scalar (hashed inline).
  var hash: UInt64? { entry.hash }

  /// A field's changes in one step.
  struct Edits {
    var changes: [TraceChange] = []
    /// The leaf-most paths the changes changed (see `TraceDiff.changesAndPaths`).
    var paths: [TracePath] = []
    /// Where the encoding put a placeholder for class instances.
    var replaced: [TracePath] = []

    /// nil when there is nothing to tell.
    var orNil: Edits? {
      changes.isEmpty && paths.isEmpty && replaced.isEmpty ? nil : self
    }
  }

  /// `key`: the key with its hash words, and `path`: the field's path, those of the field this
  /// one replaces when there is one (see `Entry.hashedKey` and `Entry.path`); so for the other
  /// inits taking them.
  init(
    key: MerkleHash.Key, path: [TracePath.Component], swiftValue: AnyValueBox,
    value: TraceValue, edits: Edits? = nil
  ) {
    entry = Entry(
      key: key, path: path, swiftValue: swiftValue, encoding: .tree(value),
      hash: MerkleHash.isContainer(value) ? MerkleHash.hash(value) : nil)
    self.edits = edits
  }

  init(
    key: MerkleHash.Key, path: [TracePath.Component], swiftValue: AnyValueBox,
    elements: ElementCache, edits: Edits?
  ) {
    entry = Entry(
      key: key, path: path, swiftValue: swiftValue, encoding: .elements(elements),
      hash: elements.hash)
    self.edits = edits
  }

  /// `staged`: whether a field (at any depth) holds staged elements; the hash is then made
  /// once they are applied (see `applyStagedElements`, which the encoder calls before it reads
  /// any hash of the step).
  init(
    key: MerkleHash.Key, path: [TracePath.Component], swiftValue: AnyValueBox,
    fields: [FieldCache], edits: Edits?, staged: Bool = false
  ) {
    entry = Entry(
      key: key, path: path, swiftValue: swiftValue, encoding: .object(fields),
      hash: staged ? nil : Self.objectHash(fields))
    self.edits = edits
    entry.stagedBelow = staged
  }

  /// The field's edits, moved out of it (nil after): the level above takes their arrays
  /// rather than reading them, which copied the three arrays (a retain and a release each)
  /// per changed field and level. Nothing reads a field's edits after its level took them.
  mutating func takeEdits() -> Edits? {
    var taken: Edits?
    swap(&taken, &edits)
    return taken
  }

  private init(entry: Entry) {
    self.entry = entry
    edits = nil
  }

  /// The field as the next step keeps it: the same entry, no edits.
  var kept: FieldCache { FieldCache(entry: entry) }

  /// The field as the next step keeps it, compared by another Swift value (see
  /// `SingleFieldWalker`): the same encoding, no edits.
  func kept(boxedIn box: AnyValueBox) -> FieldCache {
    FieldCache(
      entry: Entry(key: hashedKey, path: path, swiftValue: box, encoding: encoding, hash: hash))
  }

  /// The same encoding and edits with another Swift value (see `SingleFieldWalker`): in place
  /// when nothing else holds the entry (a field just encoded), else in an entry of its own (a
  /// field kept from the previous step, whose entry that step's cache still holds).
  mutating func rebox(in box: AnyValueBox) {
    if isKnownUniquelyReferenced(&entry) {
      entry.swiftValue = box
    } else {
      entry = Entry(
        key: hashedKey, path: path, swiftValue: box, encoding: encoding, hash: hash)
    }
  }

  /// The stable hash of the object `fields` make, from their cached hashes.
  static func objectHash(_ fields: [FieldCache]) -> UInt64 {
    var object = MerkleHash.ObjectHasher(fieldCount: fields.count)
    // Each field's entry read in place: a copy of the field copied its edits too. The entry is
    // not retained around its `combine`: `fields` holds it throughout.
    fields.withUnsafeBufferPointer { fields in
      for index in fields.indices {
        Unmanaged.passUnretained(fields[index].entry)._withUnsafeGuaranteedRef {
          $0.combine(into: &object)
        }
      }
    }
    return object.finalize()
  }

  /// The tree of the object `fields` make (O(size) for identified arrays inside).
  static func objectValue(_ fields: [FieldCache]) -> TraceValue {
    .object(fields.map { TraceField($0.key, $0.value) })
  }

  /// The field's tree: O(1), except for an identified array (O(count): keyframes, whole
  /// diffs and tests only).
  var value: TraceValue {
    switch encoding {
    case .tree(let value): value
    case .elements(let elements): elements.value
    case .object(let fields): Self.objectValue(fields)
    }
  }

  /// Writes `value`'s JSON (as `TraceValue.writeJSON` writes it) from the cached parts; an
  /// identified array's elements keep the JSON written for them (see `ElementCache.writeJSON`).
  func writeJSON(into buffer: inout JSONBuffer) {
    switch encoding {
    case .tree(let value): value.writeJSON(into: &buffer)
    case .elements(var elements):
      // The entry lets go of its copy, so that the runs are written in place, not copied.
      entry.encoding = .tree(.null)
      elements.writeJSON(into: &buffer)
      entry.encoding = .elements(elements)
    case .object(let fields): Self.writeObjectJSON(fields, into: &buffer)
    }
  }

  /// The JSON of the object `fields` make.
  static func writeObjectJSON(_ fields: [FieldCache], into buffer: inout JSONBuffer) {
    buffer.appendByte(UInt8(ascii: "{"))
    for (index, field) in fields.enumerated() {
      if index > 0 { buffer.appendByte(UInt8(ascii: ",")) }
      TraceValue.writeJSONKey(field.key, into: &buffer)
      field.writeJSON(into: &buffer)
    }
    buffer.appendByte(UInt8(ascii: "}"))
  }

  /// The bytes of the JSON the identified arrays among `fields` (at any depth) wrote when they
  /// were encoded (see `ElementCache.jsonCount`).
  static func elementsJSONCount(_ fields: [FieldCache]) -> Int {
    var total = 0
    for field in fields {
      switch field.encoding {
      case .tree: break
      case .elements(let elements): total += elements.jsonCount
      case .object(let fields): total += elementsJSONCount(fields)
      }
    }
    return total
  }

  /// Puts the elements an identified-array field staged into its cache and updates its hash
  /// (for a struct, the staged elements of its fields at any depth, and its hash).
  /// In place once nothing else holds the cache's runs (the previous step's encoding dropped):
  /// otherwise the changed runs are copied, as when they are set at once.
  mutating func applyStagedElements() {
    if entry.stagedBelow {
      applyStagedFields()
      return
    }
    guard case .elements(var elements) = entry.encoding, elements.hasStaged else { return }
    vacateEncoding()
    elements.applyStaged()
    entry.hash = elements.hash
    entry.encoding = .elements(elements)
  }

  /// Makes the entry this field's alone and empties its encoding, so that the encoding just
  /// taken out of it is held once and changes in place (until it is put back).
  private mutating func vacateEncoding() {
    if !isKnownUniquelyReferenced(&entry) {
      entry = Entry(
        key: entry.hashedKey, path: entry.path, swiftValue: entry.swiftValue,
        encoding: .tree(.null), hash: nil)
    } else {
      entry.encoding = .tree(.null)
    }
  }

  private mutating func applyStagedFields() {
    guard case .object(var fields) = entry.encoding else { return }
    vacateEncoding()
    for index in fields.indices { fields[index].applyStagedElements() }
    entry.hash = Self.objectHash(fields)
    entry.encoding = .object(fields)
    entry.stagedBelow = false
  }

  /// The cached fields of a struct encoded field by field.
  var fields: [FieldCache]? {
    if case .object(let fields) = encoding { return fields }
    return nil
  }

  /// The cached elements of an identified-array field.
  var elements: ElementCache? {
    if case .elements(let elements) = encoding { return elements }
    return nil
  }
}

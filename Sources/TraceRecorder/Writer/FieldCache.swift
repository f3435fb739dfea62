import TraceKit

/// One top-level field as last encoded: its Swift value (for comparison), its encoding and,
/// when that is a container, its stable hash (so an unchanged field is not hashed again).
struct FieldCache {
  enum Encoding {
    case tree(TraceValue)
    /// An `IdentifiedArray` field, kept in runs (see `ElementCache`).
    case elements(ElementCache)
  }

  var key: String
  var swiftValue: Any
  var encoding: Encoding
  /// The encoding's stable hash when it is a container; `nil` for a scalar (hashed inline).
  var hash: UInt64?
  /// The changes this field made in the step that produced it.
  var changes: [TraceChange] = []
  /// The leaf-most paths those changes changed (see `TraceDiff.changesAndPaths`).
  var paths: [TracePath] = []
  /// Where this step's encoding of the field put a placeholder for class instances.
  var replaced: [TracePath] = []

  init(
    key: String, swiftValue: Any, value: TraceValue, changes: [TraceChange] = [],
    paths: [TracePath] = []
  ) {
    self.key = key
    self.swiftValue = swiftValue
    self.encoding = .tree(value)
    self.hash = MerkleHash.isContainer(value) ? MerkleHash.hash(value) : nil
    self.changes = changes
    self.paths = paths
  }

  init(
    key: String, swiftValue: Any, elements: ElementCache, changes: [TraceChange],
    paths: [TracePath]
  ) {
    self.key = key
    self.swiftValue = swiftValue
    self.encoding = .elements(elements)
    self.hash = elements.hash
    self.changes = changes
    self.paths = paths
  }

  /// The field's tree: O(1), except for an identified array (O(count): keyframes, whole
  /// diffs and tests only).
  var value: TraceValue {
    switch encoding {
    case .tree(let value): value
    case .elements(let elements): elements.value
    }
  }

  /// The cached elements of an identified-array field.
  var elements: ElementCache? {
    if case .elements(let elements) = encoding { return elements }
    return nil
  }

  /// Adds this field to its object's hash, from the cached hashes.
  func combine(into object: inout MerkleHash.ObjectHasher) {
    switch encoding {
    case .tree(let value): object.add(key: key, value: value, hash: hash)
    case .elements(let elements):
      object.add(key: key, arrayCount: elements.count, hash: elements.hash)
    }
  }
}

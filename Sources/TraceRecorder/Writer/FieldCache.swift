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
  /// What the field's encoding changed in the step that produced it; nil for nothing (most
  /// fields, most steps: kept nil, copying the cache entry costs no retains for it).
  var edits: Edits?

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

  init(key: String, swiftValue: Any, value: TraceValue, edits: Edits? = nil) {
    self.key = key
    self.swiftValue = swiftValue
    self.encoding = .tree(value)
    self.hash = MerkleHash.isContainer(value) ? MerkleHash.hash(value) : nil
    self.edits = edits
  }

  init(key: String, swiftValue: Any, elements: ElementCache, edits: Edits?) {
    self.key = key
    self.swiftValue = swiftValue
    self.encoding = .elements(elements)
    self.hash = elements.hash
    self.edits = edits
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

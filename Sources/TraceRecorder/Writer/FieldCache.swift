import TraceKit

/// One top-level field as last encoded: its Swift value (for comparison), its tree and, when
/// the tree is a container, its stable hash (so an unchanged field is not hashed again).
struct FieldCache {
  var key: String
  var swiftValue: Any
  var value: TraceValue
  /// `value`'s stable hash when it is a container; `nil` for a scalar (hashed inline).
  var hash: UInt64?
  /// For an `IdentifiedArray` field: the element trees, by position.
  var elements: [TraceValue]?
  /// For an `IdentifiedArray` field: each element's stable hash (0 for a scalar element).
  var elementHashes: [UInt64] = []
  /// For an `IdentifiedArray` field longer than `MerkleHash.runLength`: each run's hash.
  var runHashes: [UInt64] = []
  /// The changes this field made in the step that produced it.
  var changes: [TraceChange] = []

  init(
    key: String, swiftValue: Any, value: TraceValue, elements: [TraceValue]? = nil,
    changes: [TraceChange] = []
  ) {
    self.key = key
    self.swiftValue = swiftValue
    self.value = value
    self.hash = MerkleHash.isContainer(value) ? MerkleHash.hash(value) : nil
    self.elements = elements
    self.changes = changes
  }

  /// A field whose hashes were computed from cached pieces.
  init(
    key: String, swiftValue: Any, value: TraceValue, hash: UInt64, elements: [TraceValue],
    elementHashes: [UInt64], runHashes: [UInt64], changes: [TraceChange]
  ) {
    self.key = key
    self.swiftValue = swiftValue
    self.value = value
    self.hash = hash
    self.elements = elements
    self.elementHashes = elementHashes
    self.runHashes = runHashes
    self.changes = changes
  }
}

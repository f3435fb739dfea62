import TraceKit

/// One top-level field as last encoded: its Swift value (for comparison) and its tree.
struct FieldCache {
  var key: String
  var swiftValue: Any
  var value: TraceValue
  /// For an `IdentifiedArray` field: the element trees, by position.
  var elements: [TraceValue]?
  /// The changes this field made in the step that produced it.
  var changes: [TraceChange] = []
}

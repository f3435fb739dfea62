/// What a replay uses of a step's index row: its number, origin, state hash and the id of its
/// changed-path set. The reader checked every other column of the row as it checks a whole
/// `StepRow` (ids that name an entry, non-negative times, a wall time), without building the
/// row's strings and array.
///
/// ```swift
/// try reader.forEachStepLine(from: 1, to: 2) { entry, payload in
///   print(entry.step, entry.origin)  // 1 user
///   return true
/// }
/// ```
package struct StepIndexEntry {
  package var step: Int
  package var origin: StepOrigin
  /// The hash of the state after the step, as the writer stored it.
  package var stateHash: UInt64
  /// The row's `changed` column: the id of the step's changed-path set in `path_sets`
  /// (`TraceReader.changedPathSet(_:step:)` gives its texts).
  package var changed: Int64
}

import Foundation

/// A reader's copy of the small tables that step rows refer to by id: `actions`, `path_sets`
/// and `origins`. A trace holds few distinct values, so they are read whole, once, and again
/// only when a row names an id the copy lacks (a live writer added it since).
///
/// ```swift
/// var interned = InternedIndex()
/// interned.actionPaths[1] = "counter.increment"
/// ```
struct InternedIndex {
  var actionPaths: [Int64: String] = [:]
  /// The stored JSON of each changed-path set; parsed on first use into `pathSets`.
  var pathSetJSON: [Int64: [UInt8]] = [:]
  var pathSets: [Int64: [String]] = [:]
  var effectIDs: [Int64: String] = [:]
  var origins: [Int64: StepOrigin] = [:]
  /// Step 0's wall time, from which the other steps' wall times are derived.
  var startWallTime: Double?
}

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
  /// The last action path and path set a row named: consecutive rows mostly name the same
  /// ones, and looking an id up in a dictionary cost more than the rest of a row's ids.
  /// Cleared whenever the tables are read again.
  var lastActionPath: (id: Int64, path: String)?
  /// The one before `lastActionPath`: many features alternate two actions (a counter's
  /// plus and minus, a timer's tick and a user's tap), which one entry misses at every row.
  var previousActionPath: (id: Int64, path: String)?
  var lastPathSet: (id: Int64, paths: [String])?
}

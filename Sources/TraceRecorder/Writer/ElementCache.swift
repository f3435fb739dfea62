import TraceKit

/// The encoded elements of an identified-array field, in runs of `MerkleHash.runLength`: each
/// run's trees and element hashes are their own copy-on-write arrays, so the next step's cache
/// shares every run it does not change (changing one element copies one run, not the field),
/// and the previous step's cache can stay alive for comparison without costing a copy.
///
/// ```swift
/// var cache = ElementCache(trees: encodedRows)   // 10,000 rows: 157 runs
/// cache.set(517, tree: newRow)
/// cache.rehash()                                  // run 8 and the array, not 10,000 rows
/// cache.hash == cache.value.stableHash            // true
/// ```
struct ElementCache {
  private(set) var count: Int
  private var trees: [[TraceValue]]
  private var hashes: [[UInt64]]
  private var runHashes: [UInt64]
  private var dirtyRuns: [Int] = []
  /// The array's stable hash (after `rehash()` when elements were set).
  private(set) var hash: UInt64

  private static var runLength: Int { MerkleHash.runLength }

  /// Caches `flat`, hashing each element unless its hashes are given.
  init(trees flat: [TraceValue], hashes flatHashes: [UInt64]? = nil) {
    count = flat.count
    trees = []
    hashes = []
    runHashes = []
    var start = 0
    while start < flat.count {
      let end = Swift.min(start + Self.runLength, flat.count)
      let run = Array(flat[start..<end])
      let runHashes =
        flatHashes.map { Array($0[start..<end]) }
        ?? run.map { MerkleHash.isContainer($0) ? MerkleHash.hash($0) : 0 }
      trees.append(run)
      hashes.append(runHashes)
      self.runHashes.append(MerkleHash.runHash(run, hashes: runHashes))
      start = end
    }
    hash = 0
    hash = arrayHash()
  }

  /// The element tree at a position.
  subscript(index: Int) -> TraceValue {
    trees[index / Self.runLength][index % Self.runLength]
  }

  /// The whole array as one tree: O(count), for keyframes and whole-field diffs only.
  var value: TraceValue {
    var flat: [TraceValue] = []
    flat.reserveCapacity(count)
    for run in trees { flat.append(contentsOf: run) }
    return .array(flat)
  }

  /// Replaces the tree at a position (same count); `rehash()` updates the hashes.
  mutating func set(_ index: Int, tree: TraceValue) {
    let run = index / Self.runLength
    let offset = index % Self.runLength
    trees[run][offset] = tree
    hashes[run][offset] = MerkleHash.isContainer(tree) ? MerkleHash.hash(tree) : 0
    if dirtyRuns.last != run { dirtyRuns.append(run) }
  }

  /// Re-hashes the runs changed by `set` and the array.
  mutating func rehash() {
    guard !dirtyRuns.isEmpty else { return }
    for run in dirtyRuns {
      runHashes[run] = MerkleHash.runHash(trees[run], hashes: hashes[run])
    }
    dirtyRuns.removeAll(keepingCapacity: true)
    hash = arrayHash()
  }

  /// The element hash at a position (0 for a scalar element).
  func elementHash(_ index: Int) -> UInt64 {
    hashes[index / Self.runLength][index % Self.runLength]
  }

  private func arrayHash() -> UInt64 {
    if count > Self.runLength {
      return MerkleHash.arrayHash(count: count, runHashes: runHashes)
    }
    return MerkleHash.arrayHash(trees.first ?? [], hashes: hashes.first ?? [])
  }
}

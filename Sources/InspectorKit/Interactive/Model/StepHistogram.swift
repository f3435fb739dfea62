import TraceKit

/// How many steps of the trace pass a filter, per bucket of consecutive step numbers: the
/// marks of search hits on the timeline, the count of a filter's matches, and a shortcut for
/// `n` to a hit far away. It is filled a bucket at a time while the view is idle (each bucket
/// is one bounded SQL count), so a key never waits for a scan of the whole trace; its size
/// stays fixed (at most `maxBuckets` counts) whatever the trace's length: as the trace grows
/// the buckets double and merge.
///
/// ```swift
/// var hits = StepHistogram(filter: StepFilter(actionPaths: ["todos.addTapped"]), lastStep: 99)
/// while let range = hits.nextPending() { hits.record(try source.count(matching: range)) }
/// hits.total  // 2
/// ```
package struct StepHistogram: Sendable, Equatable {
  package static let maxBuckets = 512

  package let filter: StepFilter
  /// Steps per bucket: a power of two.
  package private(set) var bucketSize: Int
  /// Counts per bucket; nil until counted.
  package private(set) var counts: [Int?]
  package private(set) var lastStep: Int

  package init(filter: StepFilter, lastStep: Int) {
    self.filter = filter
    self.lastStep = max(0, lastStep)
    bucketSize = 1
    while (self.lastStep + 1 + bucketSize - 1) / bucketSize > Self.maxBuckets {
      bucketSize *= 2
    }
    counts = Array(repeating: nil, count: (self.lastStep + bucketSize) / bucketSize)
  }

  /// The steps of bucket `index`.
  package func range(ofBucket index: Int) -> ClosedRange<Int> {
    (index * bucketSize)...min(lastStep, (index + 1) * bucketSize - 1)
  }

  package func bucket(of step: Int) -> Int {
    min(counts.count - 1, max(0, step / bucketSize))
  }

  /// The filter of the first bucket not counted yet, nil when all are.
  package func nextPending() -> StepFilter? {
    guard let index = counts.firstIndex(where: { $0 == nil }) else { return nil }
    var filter = self.filter
    let range = range(ofBucket: index)
    filter.from = range.lowerBound
    filter.to = range.upperBound
    return filter
  }

  /// Stores the count of the bucket `nextPending()` gave.
  package mutating func record(_ count: Int) {
    guard let index = counts.firstIndex(where: { $0 == nil }) else { return }
    counts[index] = count
  }

  package var isComplete: Bool { !counts.contains(where: { $0 == nil }) }

  /// Steps that pass the filter, when every bucket is counted.
  package var total: Int? {
    isComplete ? counts.reduce(0) { $0 + ($1 ?? 0) } : nil
  }

  /// Follows a trace that grew: the last bucket is counted again, new ones are added, and
  /// when there would be too many, neighbours merge.
  package mutating func grow(to newLast: Int) {
    guard newLast > lastStep else { return }
    if !counts.isEmpty { counts[counts.count - 1] = nil }
    lastStep = newLast
    while (lastStep + bucketSize) / bucketSize > Self.maxBuckets {
      var merged: [Int?] = []
      var index = 0
      while index < counts.count {
        let pair = counts[index..<min(counts.count, index + 2)]
        merged.append(pair.contains(where: { $0 == nil }) ? nil : pair.reduce(0) { $0 + $1! })
        index += 2
      }
      counts = merged
      bucketSize *= 2
    }
    let needed = (lastStep + bucketSize) / bucketSize
    if needed > counts.count {
      counts += Array(repeating: nil, count: needed - counts.count)
    }
  }

  /// Whether any step of `steps` passes: true or false when the buckets it covers are
  /// counted (a bucket only partly inside counts as a hit when it has any), nil otherwise.
  package func hasHit(in steps: ClosedRange<Int>) -> Bool? {
    guard !counts.isEmpty, steps.lowerBound <= lastStep else { return false }
    var unknown = false
    for index in bucket(of: steps.lowerBound)...bucket(of: min(steps.upperBound, lastStep)) {
      guard let count = counts[index] else {
        unknown = true
        continue
      }
      if count > 0 { return true }
    }
    return unknown ? nil : false
  }

  /// The first bucket after the one holding `step` that has a hit, when every bucket between
  /// is counted; `.none` when it is known that there is none.
  package enum Lookup: Equatable {
    case bucket(Int)
    case none
    case unknown
  }

  package func nextHitBucket(after step: Int) -> Lookup {
    var index = bucket(of: step) + 1
    while index < counts.count {
      guard let count = counts[index] else { return .unknown }
      if count > 0 { return .bucket(index) }
      index += 1
    }
    return .none
  }

  package func previousHitBucket(before step: Int) -> Lookup {
    var index = bucket(of: step) - 1
    while index >= 0 {
      guard let count = counts[index] else { return .unknown }
      if count > 0 { return .bucket(index) }
      index -= 1
    }
    return .none
  }
}

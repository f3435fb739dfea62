import Foundation
import TraceKit

/// Answers to the interactive view's questions from the basic calls of `TraceSource`, by
/// walking the index: right for any source (a trace held in memory by a test, a live
/// source), fast enough for small ones. `TraceFileSource` answers them with SQL instead.
extension TraceSource {
  package func rows(
    matching filter: StepFilter, limit: Int, descending: Bool
  ) throws(InspectorError) -> [StepRow] {
    guard limit > 0 else { return [] }
    let last = try summary().stepCount
    let low = max(0, filter.from)
    let high = min(last, filter.to)
    guard low <= high else { return [] }
    var found: [StepRow] = []
    if descending {
      // Walk back in windows so a step near the end is found without reading the whole index.
      var end = high
      while end >= low, found.count < limit {
        let start = max(low, end - 255)
        var window: [StepRow] = []
        try forEachStep(from: start, to: end) { row in
          if filter.matches(row) { window.append(row) }
          return true
        }
        found += window.reversed().prefix(limit - found.count)
        end = start - 1
      }
      return found
    }
    try forEachStep(from: low, to: high) { row in
      if filter.matches(row) { found.append(row) }
      return found.count < limit
    }
    return found
  }

  package func count(matching filter: StepFilter) throws(InspectorError) -> Int {
    var count = 0
    try forEachStep(from: max(0, filter.from), to: filter.to) { row in
      if filter.matches(row) { count += 1 }
      return true
    }
    return count
  }

  package func actionPaths() throws(InspectorError) -> [String] {
    var paths = Set<String>()
    try forEachStep(from: 0, to: try summary().stepCount) { row in
      paths.insert(row.actionPath)
      return true
    }
    return Array(paths)
  }

  package func actionCounts(from: Int, to: Int) throws(InspectorError) -> [String: Int] {
    var counts: [String: Int] = [:]
    try forEachStep(from: from, to: to) { row in
      counts[row.actionPath, default: 0] += 1
      return true
    }
    return counts
  }

  package func effects(startedBy step: Int) throws(InspectorError) -> [EffectRecord] {
    try effects().filter { $0.startedByStep == step }
  }

  package func effect(id: UUID) throws(InspectorError) -> EffectRecord? {
    try effects().first { $0.id == id }
  }

  package func writerState() -> WriterState {
    ((try? summary())?.isComplete ?? false) ? .closed : .unknown
  }
}

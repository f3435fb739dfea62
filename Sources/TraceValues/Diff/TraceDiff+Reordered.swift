extension TraceDiff {
  /// The changes and changed paths of an array whose elements only moved, under `prefix`:
  /// the same as `changesAndPaths(from: .array(old), to: .array(new))` with every change and
  /// path moved under `prefix`, where `new[position]` is `old[sources[position]]` (the same
  /// tree). Cheaper: the trees are not compared, and the ids are matched by position rather
  /// than by value, since the caller knows where each element went. nil when the diff would
  /// not match the elements by id (an element is not an object with an `id`, or two ids are
  /// equal) or `sources` is not a reordering: the caller then diffs the array whole.
  ///
  /// ```swift
  /// let rows: [TraceValue] = [a, b, c]   // objects with ids 1, 2, 3
  /// let diff = TraceDiff.reordered(rows, sources: [1, 2, 0], prefix: [.key("rows")])
  /// diff?.changes.map(\.description)  // ["remove rows[id: 1]", "insert rows[2] (id: 1, …)"]
  /// diff?.paths.map(\.description)    // ["rows[id: 1]", "rows[id: 1]"]
  /// ```
  package static func reordered(
    _ old: [TraceValue], sources: [Int], prefix: [TracePath.Component]
  ) -> (changes: [TraceChange], paths: [TracePath])? {
    let count = old.count
    guard sources.count == count else { return nil }
    // Where each old element went; -1 where none did (then `sources` is not a reordering).
    var destination = [Int](repeating: -1, count: count)
    for (position, source) in sources.enumerated() {
      guard source >= 0, source < count, destination[source] < 0 else { return nil }
      destination[source] = position
    }
    if sources.indices.allSatisfy({ sources[$0] == $0 }) { return ([], []) }
    guard let ids = Differ.distinctIDs(old) else { return nil }
    // As `Differ.diffIdentified`: every element survives, and the longest run of them that
    // kept its relative order stays; the others are removed by id, in their old order, then
    // inserted at their new index. The staying ones are the same trees: nothing to diff.
    var stays = [Bool](repeating: false, count: count)
    for oldIndex in Differ.longestIncreasingSubsequence(destination) { stays[oldIndex] = true }
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    var path = prefix
    for index in 0..<count where !stays[index] {
      path.append(.id(ids[index]))
      let removed = TracePath(path)
      changes.append(.remove(removed))
      paths.append(removed)
      path.removeLast()
    }
    for position in 0..<count where !stays[sources[position]] {
      path.append(.index(position))
      let insertion = TracePath(path)
      path[path.count - 1] = .id(ids[sources[position]])
      changes.append(.insert(insertion, old[sources[position]]))
      paths.append(TracePath(path))
      path.removeLast()
    }
    return (changes, paths)
  }
}

// How the children of two containers pair up in a diff. One definition serves the changes a
// trace stores (`Differ`), the changed paths of its index, and the inspector's rendering of a
// diff, so the paths `inspector diff` shows are the paths `log --path` finds.

extension TraceDiff {
  /// One child position of two containers being compared: its path below them, and its value
  /// on the side or sides that have it.
  ///
  /// An element moved within an identified array is `removed` from its old place and
  /// `inserted` at its new one, both at `[id: …]`.
  package enum Child: Equatable {
    case same([TracePath.Component], TraceValue)
    case changed([TracePath.Component], old: TraceValue, new: TraceValue)
    case removed([TracePath.Component], old: TraceValue)
    case inserted([TracePath.Component], new: TraceValue)

    /// The path below the containers.
    package var components: [TracePath.Component] {
      switch self {
      case .same(let path, _), .changed(let path, _, _), .removed(let path, _),
        .inserted(let path, _):
        path
      }
    }
  }

  /// The children of two values, paired; nil when they can only be compared whole: leaves,
  /// different kinds, different enum cases, objects with duplicate keys or whose kept keys
  /// changed order.
  ///
  /// ```swift
  /// let old = try TraceValue(json: #"{"a":1,"rows":[{"id":1},{"id":2}]}"#)
  /// let new = try TraceValue(json: #"{"a":1,"rows":[{"id":2},{"id":3}]}"#)
  /// TraceDiff.children(old, new)
  /// // [.same([a], 1), .changed([rows], …)]
  /// TraceDiff.children(old.value(at: rows), new.value(at: rows))
  /// // [.removed([[id: 1]], …), .same([[id: 2]], …), .inserted([[id: 3]], …)]
  /// ```
  ///
  /// - Objects pair by key: old keys in old order (same, changed or removed), then new keys in
  ///   new order (inserted).
  /// - The same enum case with the same associated labels: one child per associated value,
  ///   at `case.label` (a single unlabelled value at `case` itself: `destination.detail`).
  /// - `.reflected` values of the same type are looked through.
  /// - Arrays whose elements are all objects with distinct `id` fields (an empty array fits
  ///   either way): elements pair by id; those not in the longest run that kept its relative
  ///   order moved. Every child is at `[id: …]`, in the new order (what left or moved is
  ///   removed where it was, before what arrived there).
  /// - Other arrays: the common prefix and suffix are the same; in between, positions pair
  ///   one to one (`[i]`), and the longer side's rest is removed (old positions) or inserted
  ///   (new positions).
  package static func children(_ old: TraceValue, _ new: TraceValue) -> [Child]? {
    switch (old, new) {
    case (.object(let a), .object(let b)):
      return objectChildren(a, b)
    case (.enumCase(let name, let a), .enumCase(let other, let b)) where sameUTF8(name, other):
      return enumChildren(name, a, b)
    case (.reflected(let type, let a), .reflected(let other, let b)) where sameUTF8(type, other):
      return children(a, b)
    case (.array(let a), .array(let b)):
      if let oldIDs = identifiers(a), let newIDs = identifiers(b) {
        return identifiedChildren(a, oldIDs, b, newIDs)
      }
      return indexedChildren(a, b)
    default:
      return nil
    }
  }

  /// The leaf-most paths at which `old` and `new` differ, in the order `children` lists them:
  /// where a child is the same there is nothing; where it was removed, inserted or can only
  /// be compared whole, its own path; else the paths inside it.
  ///
  /// ```swift
  /// TraceDiff.changedPaths(from: old, to: new).map(\.description)
  /// // ["rows[id: 1]", "rows[id: 3]"]
  /// ```
  public static func changedPaths(from old: TraceValue, to new: TraceValue) -> [TracePath] {
    var paths: [TracePath] = []
    var prefix: [TracePath.Component] = []
    appendChangedPaths(old, new, prefix: &prefix, into: &paths)
    return paths
  }

  static func appendChangedPaths(
    _ old: TraceValue, _ new: TraceValue, prefix: inout [TracePath.Component],
    into paths: inout [TracePath]
  ) {
    guard old != new else { return }
    guard let children = children(old, new) else {
      paths.append(TracePath(prefix))
      return
    }
    for child in children {
      switch child {
      case .same:
        continue
      case .removed(let path, _), .inserted(let path, _):
        paths.append(TracePath(prefix + path))
      case .changed(let path, let old, let new):
        let depth = prefix.count
        prefix += path
        appendChangedPaths(old, new, prefix: &prefix, into: &paths)
        prefix.removeSubrange(depth...)
      }
    }
  }

  private static func objectChildren(_ a: [TraceField], _ b: [TraceField]) -> [Child]? {
    if Differ.hasDuplicateKeys(a) || Differ.hasDuplicateKeys(b) { return nil }
    var newIndex: [String: Int] = [:]
    newIndex.reserveCapacity(b.count)
    for (index, field) in b.enumerated() { newIndex[field.key] = index }
    var children: [Child] = []
    children.reserveCapacity(max(a.count, b.count))
    var lastKept = -1
    var kept = Set<String>()
    for field in a {
      guard let index = newIndex[field.key] else {
        children.append(.removed([.key(field.key)], old: field.value))
        continue
      }
      // Kept keys that changed order cannot be shown key by key.
      guard index > lastKept else { return nil }
      lastKept = index
      kept.insert(field.key)
      let value = b[index].value
      children.append(
        value == field.value
          ? .same([.key(field.key)], value)
          : .changed([.key(field.key)], old: field.value, new: value))
    }
    for field in b where !kept.contains(field.key) {
      children.append(.inserted([.key(field.key)], new: field.value))
    }
    return children
  }

  private static func enumChildren(_ name: String, _ a: [TraceField], _ b: [TraceField])
    -> [Child]?
  {
    guard !a.isEmpty, a.count == b.count,
      a.indices.allSatisfy({ sameUTF8(a[$0].key, b[$0].key) }), !Differ.hasDuplicateKeys(a)
    else { return nil }
    if a.count == 1 && a[0].key == "_0" {
      let path: [TracePath.Component] = [.key(name)]
      return [
        a[0].value == b[0].value
          ? .same(path, b[0].value) : .changed(path, old: a[0].value, new: b[0].value)
      ]
    }
    return a.indices.map { index in
      let path: [TracePath.Component] = [.key(name), .key(a[index].key)]
      return a[index].value == b[index].value
        ? .same(path, b[index].value)
        : .changed(path, old: a[index].value, new: b[index].value)
    }
  }

  /// The `id` of every element when all of them are objects with distinct ids; `[]` for an
  /// empty array.
  static func identifiers(_ elements: [TraceValue]) -> [TraceValue]? {
    Differ.distinctIDs(elements)
  }

  /// Identified elements in the new order: an element that stays where it was is same or
  /// changed; one that left or moved is removed where it was, and one that arrived or moved is
  /// inserted where it is now; between two staying elements, what left comes first.
  private static func identifiedChildren(
    _ a: [TraceValue], _ oldIDs: [TraceValue], _ b: [TraceValue], _ newIDs: [TraceValue]
  ) -> [Child] {
    let staying = Differ.stayingElements(oldIDs: oldIDs, newIDs: newIDs, newCount: b.count)
    var children: [Child] = []
    children.reserveCapacity(max(a.count, b.count))
    // For each new position, the old index of the next element that stays (a.count if none).
    var nextStaying = [Int](repeating: a.count, count: b.count + 1)
    for position in b.indices.reversed() {
      let from = staying[position]
      nextStaying[position] = from >= 0 ? from : nextStaying[position + 1]
    }
    // Every old element before a staying one that is not consumed yet left or moved.
    var nextOld = 0
    func removeOld(before end: Int) {
      while nextOld < end {
        children.append(.removed([.id(oldIDs[nextOld])], old: a[nextOld]))
        nextOld += 1
      }
    }
    for position in b.indices {
      let from = staying[position]
      guard from >= 0 else {
        removeOld(before: nextStaying[position])
        children.append(.inserted([.id(newIDs[position])], new: b[position]))
        continue
      }
      removeOld(before: from)
      nextOld = from + 1
      children.append(
        a[from] == b[position]
          ? .same([.id(newIDs[position])], b[position])
          : .changed([.id(newIDs[position])], old: a[from], new: b[position]))
    }
    removeOld(before: a.count)
    return children
  }

  private static func indexedChildren(_ a: [TraceValue], _ b: [TraceValue]) -> [Child] {
    let (prefix, suffix) = Differ.commonEnds(a, b)
    var children: [Child] = []
    children.reserveCapacity(max(a.count, b.count))
    for index in 0..<prefix { children.append(.same([.index(index)], b[index])) }
    let oldMiddle = a.count - prefix - suffix
    let newMiddle = b.count - prefix - suffix
    for index in prefix..<(prefix + min(oldMiddle, newMiddle)) {
      children.append(
        a[index] == b[index]
          ? .same([.index(index)], b[index])
          : .changed([.index(index)], old: a[index], new: b[index]))
    }
    if oldMiddle > newMiddle {
      for index in (prefix + newMiddle)..<(prefix + oldMiddle) {
        children.append(.removed([.index(index)], old: a[index]))
      }
    } else {
      for index in (prefix + oldMiddle)..<(prefix + newMiddle) {
        children.append(.inserted([.index(index)], new: b[index]))
      }
    }
    for index in (b.count - suffix)..<b.count { children.append(.same([.index(index)], b[index])) }
    return children
  }
}

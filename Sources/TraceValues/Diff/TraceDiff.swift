/// Structural diff and patch of `TraceValue` trees.
///
/// ```swift
/// let old = try TraceValue(json: #"{"todos":[{"id":3,"title":"a"}],"count":1}"#)
/// let new = try TraceValue(
///   json: #"{"todos":[{"id":4,"title":"b"},{"id":3,"title":"c"}],"count":1}"#)
/// for change in TraceDiff.changes(from: old, to: new) { print(change) }
/// // insert todos[0] (id: 4, title: "b")
/// // set todos[id: 3].title "c"
/// var value = old
/// try TraceDiff.apply(TraceDiff.changes(from: old, to: new), to: &value)
/// print(value == new)  // true
/// ```
///
/// What the diff emits, level by level (pairing children as `children(_:_:)` does):
/// - equal subtrees: nothing (checked with `==`, which is O(1) for arrays sharing storage);
/// - objects with the same keys in the same order: changes per changed field; keys removed:
///   `.remove`; keys added at the end: `.set` (which appends); keys added elsewhere, kept
///   keys reordered, or a duplicate key: one `.set` of the whole object (the changed paths
///   still name the keys);
/// - arrays whose elements are all objects with distinct `id` fields, in both values: elements
///   matched by id (`todos[id: 3]`): gone or moved elements are `.remove`d by id, new or moved
///   ones `.insert`ed at their new index, kept ones diffed in place; the longest run of
///   elements that kept their relative order stays, so one insertion is one `.insert`;
/// - other arrays: by index after the common prefix and suffix: `.set`s for overlapping
///   positions, then `.insert`s or `.remove`s (from the highest index down) for the rest;
/// - the same enum case: changes inside its associated values (a single unlabelled value is
///   entered directly: `destination.childDetail.name`); another case: `.set` of the whole value;
/// - `.reflected` values of the same type are looked through; anything else: `.set`.
///
/// The changed paths are the leaf-most paths where the values differ (`changedPaths`): a
/// change's own path, except that an element inserted into an identified array is named by
/// its id (`todos[id: 4]`, not the index the insertion needs), and a whole-object `.set`
/// names the keys inside it that changed.
public enum TraceDiff {
  /// The changes that turn `old` into `new`, in the order they must be applied.
  public static func changes(from old: TraceValue, to new: TraceValue) -> [TraceChange] {
    changesAndPaths(from: old, to: new).changes
  }

  /// The changes that turn `old` into `new`, and the leaf-most paths where they differ (the
  /// same as `changedPaths(from:to:)`, found in the same walk).
  ///
  /// ```swift
  /// let (changes, paths) = TraceDiff.changesAndPaths(from: old, to: new)
  /// changes.map(\.description)     // ["insert todos[0] (id: 4, title: \"b\")", …]
  /// paths.map(\.description)       // ["todos[id: 4]", "todos[id: 3].title"]
  /// ```
  public static func changesAndPaths(from old: TraceValue, to new: TraceValue)
    -> (changes: [TraceChange], paths: [TracePath])
  {
    changesAndPaths(from: old, to: new, hashingAbove: Differ.smallArray)
  }

  /// `changesAndPaths(from:to:)`, matching the ids of identified arrays by hashing above
  /// `hashingAbove` elements (-1: always, as for any large array): the same result either way.
  package static func changesAndPaths(
    from old: TraceValue, to new: TraceValue, hashingAbove: Int
  ) -> (changes: [TraceChange], paths: [TracePath]) {
    var differ = Differ(hashingAbove: hashingAbove)
    differ.diff(old, new, whole: new)
    return (differ.changes, differ.paths)
  }

  /// `changesAndPaths(from:to:)` with every change's path and every changed path under
  /// `prefix` (`prefix + path.components`), written there as they are found rather than
  /// copied under it afterwards.
  ///
  /// ```swift
  /// let (changes, paths) = TraceDiff.changesAndPaths(from: old, to: new, under: [.key("row")])
  /// paths.map(\.description)  // ["row.title"]
  /// ```
  ///
  /// `prefix` is taken, not copied: given alone and with room for the components the diff
  /// appends, it is the diff's path without an allocation.
  package static func changesAndPaths(
    from old: TraceValue, to new: TraceValue, under prefix: consuming [TracePath.Component]
  ) -> (changes: [TraceChange], paths: [TracePath]) {
    var differ = Differ(path: prefix)
    differ.diff(old, new, whole: new)
    return (differ.changes, differ.paths)
  }

  /// Applies `changes` in order to `value`, in place.
  ///
  /// Each change moves the containers on its path out of their enum boxes before mutating, so
  /// a change inside a large array does not copy the array when `value` is its only owner.
  ///
  /// - Throws: `TracePatchError` for the first change whose path does not fit the value; that
  ///   change is not applied, the changes before it are.
  public static func apply(
    _ changes: [TraceChange], to value: inout TraceValue
  ) throws(TracePatchError) {
    try Patcher.apply(changes, to: &value)
  }
}

struct Differ {
  /// Identified arrays with more elements than this match their ids by hashing (see
  /// `smallArray`; tests set it to compare both ways).
  var hashingAbove = Differ.smallArray
  var path: [TracePath.Component] = []
  var changes: [TraceChange] = []
  var paths: [TracePath] = []

  /// A `set` of a value that replaces a leaf, or a container that cannot be paired with the
  /// old one: the change's path is the changed path.
  private mutating func emitSet(_ value: TraceValue) {
    let here = TracePath(path)
    changes.append(.set(here, value))
    paths.append(here)
  }

  /// A `set` of a whole container whose children do pair (keys added in the middle of an
  /// object, a duplicate key): the changed paths are found inside it.
  private mutating func emitWholeSet(old: TraceValue, new: TraceValue, whole: TraceValue) {
    guard old != new else { return }
    changes.append(.set(TracePath(path), whole))
    TraceDiff.appendChangedPaths(old, new, prefix: &path, into: &paths)
  }

  private mutating func emit(_ change: TraceChange, changedPath: TracePath) {
    changes.append(change)
    paths.append(changedPath)
  }

  /// Emits the changes from `old` to `new` at the current path (none when they are equal).
  /// `whole` is what replaces the slot at the current path when the two cannot be diffed
  /// structurally (it differs from `new` when a `.reflected` marker is being looked through).
  ///
  /// Containers are not compared with `==` before descending: each container compares its own
  /// leaves (and whole elements of arrays), so every node is compared about once, and storage
  /// shared by both trees is recognised in O(1).
  mutating func diff(_ old: TraceValue, _ new: TraceValue, whole: TraceValue) {
    switch (old, new) {
    case (.object(let a), .object(let b)):
      if !a.sharesStorage(with: b) { diffObject(a, b, whole: whole) }
    case (.array(let a), .array(let b)):
      if !a.sharesStorage(with: b) { diffArray(a, b) }
    case (.enumCase(let name, let a), .enumCase(let other, let b)) where sameUTF8(name, other):
      if !a.sharesStorage(with: b) { diffEnum(name, a, b, whole: whole) }
    case (.reflected(let type, let a), .reflected(let other, let b)) where sameUTF8(type, other):
      diff(a, b, whole: whole)
    default:
      if old != new { emitSet(whole) }
    }
  }

  private mutating func diffField(_ key: String, _ old: TraceValue, _ new: TraceValue) {
    switch (old, new) {
    case (.object, .object), (.array, .array), (.enumCase, .enumCase), (.reflected, .reflected):
      path.append(.key(key))
      diff(old, new, whole: new)
      path.removeLast()
    default:
      if old != new {
        path.append(.key(key))
        emitSet(new)
        path.removeLast()
      }
    }
  }

  private mutating func diffObject(_ a: [TraceField], _ b: [TraceField], whole: TraceValue) {
    // Keys compare by bytes: a key that only changed its Unicode normalization is a new key.
    if a.count == b.count && a.indices.allSatisfy({ sameUTF8(a[$0].key, b[$0].key) }) {
      if Self.hasDuplicateKeys(a) {
        return emitWholeSet(old: .object(a), new: .object(b), whole: whole)
      }
      for index in a.indices {
        diffField(b[index].key, a[index].value, b[index].value)
      }
      return
    }
    if Self.hasDuplicateKeys(a) || Self.hasDuplicateKeys(b) {
      return emitWholeSet(old: .object(a), new: .object(b), whole: whole)
    }
    let newKeys = Set(b.lazy.map(\.key))
    let oldKeys = Set(a.lazy.map(\.key))
    let kept = a.filter { newKeys.contains($0.key) }
    // Removing keys and appending new ones cannot reorder what stays; a key added between
    // kept ones (a dictionary's sorted keys) has no `set` of its own, so the whole object is
    // set.
    for (index, field) in kept.enumerated() where !sameUTF8(b[index].key, field.key) {
      return emitWholeSet(old: .object(a), new: .object(b), whole: whole)
    }
    for field in a where !newKeys.contains(field.key) {
      path.append(.key(field.key))
      let removed = TracePath(path)
      emit(.remove(removed), changedPath: removed)
      path.removeLast()
    }
    for (index, field) in kept.enumerated() {
      diffField(field.key, field.value, b[index].value)
    }
    for field in b[kept.count...] where !oldKeys.contains(field.key) {
      path.append(.key(field.key))
      emitSet(field.value)
      path.removeLast()
    }
  }

  static func hasDuplicateKeys(_ fields: [TraceField]) -> Bool {
    if fields.count < 2 { return false }
    if fields.count <= 8 {
      for i in fields.indices {
        for j in (i + 1)..<fields.count where fields[i].key == fields[j].key { return true }
      }
      return false
    }
    var seen = Set<String>(minimumCapacity: fields.count)
    for field in fields where !seen.insert(field.key).inserted { return true }
    return false
  }

  private mutating func diffEnum(
    _ name: String, _ a: [TraceField], _ b: [TraceField], whole: TraceValue
  ) {
    guard !a.isEmpty, a.count == b.count,
      a.indices.allSatisfy({ sameUTF8(a[$0].key, b[$0].key) }), !Self.hasDuplicateKeys(a)
    else {
      if a != b { emitSet(whole) }
      return
    }
    path.append(.key(name))
    if a.count == 1 && a[0].key == "_0" {
      // The only associated value is entered directly: the path names the case, not `_0`.
      diff(a[0].value, b[0].value, whole: b[0].value)
    } else {
      for index in a.indices {
        diffField(a[index].key, a[index].value, b[index].value)
      }
    }
    path.removeLast()
  }

  private mutating func diffArray(_ a: [TraceValue], _ b: [TraceValue]) {
    if a.count == b.count, let ids = Self.sameIDs(a, b) {
      return diffInPlace(a, b, ids: ids)
    }
    if let oldIDs = Self.distinctIDs(a, hashingAbove: hashingAbove),
      let newIDs = Self.distinctIDs(b, hashingAbove: hashingAbove)
    {
      diffIdentified(a, oldIDs, b, newIDs)
    } else {
      diffIndexed(a, b)
    }
  }

  /// The ids, when both arrays hold objects with the same ids in the same order: the common
  /// step that edits elements without adding, removing or moving any.
  static func sameIDs(_ a: [TraceValue], _ b: [TraceValue]) -> [TraceValue]? {
    var ids: [TraceValue] = []
    ids.reserveCapacity(a.count)
    for index in a.indices {
      guard let id = a[index].identifier, let other = b[index].identifier, id == other else {
        return nil
      }
      ids.append(id)
    }
    return ids
  }

  /// Same ids in the same order: only changed elements are looked at, and the ids are checked
  /// for uniqueness only when some element changed (hashing every id costs more than the diff).
  private mutating func diffInPlace(_ a: [TraceValue], _ b: [TraceValue], ids: [TraceValue]) {
    var changed: [Int] = []
    for index in a.indices where a[index] != b[index] { changed.append(index) }
    if changed.isEmpty { return }
    let unique: Bool
    if changed.count <= 4 {
      unique = changed.allSatisfy { index in
        var seen = 0
        for id in ids where id == ids[index] { seen += 1 }
        return seen == 1
      }
    } else {
      unique = Set(ids).count == ids.count
    }
    for index in changed {
      path.append(unique ? .id(ids[index]) : .index(index))
      diff(a[index], b[index], whole: b[index])
      path.removeLast()
    }
  }

  /// Up to this many elements, ids are matched by comparing them with each other, first by
  /// `summary(of:)`: hashing an id (a UUID's text) costs a thousand instructions, and a move
  /// in a list of 8 cost 57,000, most of them hashing.
  static var smallArray: Int { 16 }

  /// A cheap summary of an id that equal ids share (`==` decides where summaries match): a
  /// scalar's bits, a string's length and last eight bytes, 0 for anything else.
  static func summary(of id: TraceValue) -> UInt64 {
    switch id {
    case .bool(let value): return value ? 1 : 0
    case .int(let value): return UInt64(bitPattern: value)
    case .uint(let value): return value
    case .double(let value): return value.bitPattern
    case .string(var text):
      return text.withUTF8 { bytes in
        var tail: UInt64 = 0
        for byte in bytes.suffix(8) { tail = tail << 8 | UInt64(byte) }
        return tail ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
      }
    default: return 0
    }
  }

  /// The `id` of every element, if all elements are objects with distinct ids (`[]` for an
  /// empty array). They are told apart by hashing above `hashingAbove` elements, else by
  /// comparing them (the same answer: tests compare both).
  static func distinctIDs(_ elements: [TraceValue], hashingAbove: Int = smallArray)
    -> [TraceValue]?
  {
    var ids: [TraceValue] = []
    ids.reserveCapacity(elements.count)
    if elements.count <= hashingAbove {
      var summaries: [UInt64] = []
      summaries.reserveCapacity(elements.count)
      for element in elements {
        guard let id = element.identifier else { return nil }
        let summary = Self.summary(of: id)
        for index in ids.indices where summaries[index] == summary && ids[index] == id {
          return nil
        }
        ids.append(id)
        summaries.append(summary)
      }
      return ids
    }
    var seen = Set<TraceValue>(minimumCapacity: elements.count)
    for element in elements {
      guard let id = element.identifier, seen.insert(id).inserted else { return nil }
      ids.append(id)
    }
    return ids
  }

  /// For each position of the new array, the old index of the element that stays there, or
  /// -1 where an element is new or moved: the survivors (elements whose id is in both) in
  /// their longest run that kept its relative order stay.
  /// The ids are matched by hashing above `hashingAbove` new ids, else by comparing them.
  static func stayingElements(
    oldIDs: [TraceValue], newIDs: [TraceValue], newCount: Int, hashingAbove: Int = smallArray
  ) -> [Int] {
    var survivorOld: [Int] = []
    var survivorNew: [Int] = []
    if newIDs.count <= hashingAbove {
      // The ids are distinct: the first equal one is the only one.
      let newSummaries = newIDs.map(Self.summary(of:))
      for index in oldIDs.indices {
        let summary = Self.summary(of: oldIDs[index])
        for position in newIDs.indices
        where newSummaries[position] == summary && newIDs[position] == oldIDs[index] {
          survivorOld.append(index)
          survivorNew.append(position)
          break
        }
      }
    } else {
      var newPosition = [TraceValue: Int](minimumCapacity: newIDs.count)
      for (index, id) in newIDs.enumerated() { newPosition[id] = index }
      for (index, id) in oldIDs.enumerated() {
        if let position = newPosition[id] {
          survivorOld.append(index)
          survivorNew.append(position)
        }
      }
    }
    var oldIndexOfStaying = [Int](repeating: -1, count: newCount)
    for k in longestIncreasingSubsequence(survivorNew) {
      oldIndexOfStaying[survivorNew[k]] = survivorOld[k]
    }
    return oldIndexOfStaying
  }

  /// The lengths of the common prefix and of the common suffix (not overlapping it).
  static func commonEnds(_ a: [TraceValue], _ b: [TraceValue]) -> (prefix: Int, suffix: Int) {
    var prefix = 0
    while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix && suffix < b.count - prefix
      && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    {
      suffix += 1
    }
    return (prefix, suffix)
  }

  private mutating func diffIdentified(
    _ a: [TraceValue], _ oldIDs: [TraceValue], _ b: [TraceValue], _ newIDs: [TraceValue]
  ) {
    let oldIndexOfStaying = Self.stayingElements(
      oldIDs: oldIDs, newIDs: newIDs, newCount: b.count, hashingAbove: hashingAbove)
    var stays = [Bool](repeating: false, count: a.count)
    for oldIndex in oldIndexOfStaying where oldIndex >= 0 { stays[oldIndex] = true }
    for (index, id) in oldIDs.enumerated() where !stays[index] {
      path.append(.id(id))
      let removed = TracePath(path)
      emit(.remove(removed), changedPath: removed)
      path.removeLast()
    }
    for (position, element) in b.enumerated() {
      let oldIndex = oldIndexOfStaying[position]
      if oldIndex < 0 {
        // Inserted at its index; named, as a changed path, by its id.
        path.append(.index(position))
        let insertion = TracePath(path)
        path[path.count - 1] = .id(newIDs[position])
        emit(.insert(insertion, element), changedPath: TracePath(path))
        path.removeLast()
      } else if a[oldIndex] != element {
        path.append(.id(newIDs[position]))
        diff(a[oldIndex], element, whole: element)
        path.removeLast()
      }
    }
  }

  /// Indices into `values` of one longest strictly increasing subsequence (patience sorting).
  static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    if values.indices.dropFirst().allSatisfy({ values[$0 - 1] < values[$0] }) {
      return Array(values.indices)
    }
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var index = tails.last ?? -1
    while index >= 0 {
      result.append(index)
      index = previous[index]
    }
    return result.reversed()
  }

  private mutating func diffIndexed(_ a: [TraceValue], _ b: [TraceValue]) {
    let (prefix, suffix) = Self.commonEnds(a, b)
    let oldMiddle = a.count - prefix - suffix
    let newMiddle = b.count - prefix - suffix
    let overlap = min(oldMiddle, newMiddle)
    for index in prefix..<(prefix + overlap) where a[index] != b[index] {
      path.append(.index(index))
      diff(a[index], b[index], whole: b[index])
      path.removeLast()
    }
    if newMiddle > oldMiddle {
      for index in (prefix + overlap)..<(prefix + newMiddle) {
        path.append(.index(index))
        let inserted = TracePath(path)
        emit(.insert(inserted, b[index]), changedPath: inserted)
        path.removeLast()
      }
    } else if oldMiddle > newMiddle {
      for index in ((prefix + overlap)..<(prefix + oldMiddle)).reversed() {
        path.append(.index(index))
        let removed = TracePath(path)
        emit(.remove(removed), changedPath: removed)
        path.removeLast()
      }
    }
  }
}

extension Array {
  /// Whether both arrays use the same buffer (then they are equal without looking inside).
  func sharesStorage(with other: [Element]) -> Bool {
    count == other.count
      && withUnsafeBufferPointer { mine in
        other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
      }
  }
}

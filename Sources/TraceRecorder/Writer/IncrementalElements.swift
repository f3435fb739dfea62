import ComposableCore
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A collection field whose elements `IncrementalEncoder` re-encodes one by one.
protocol IncrementalElements {
  /// The field of the value at `value` (a `Self`), read where it is: the writer finds the
  /// conforming type once per type (`WalkedTypes.elementsType`) and passes the field by
  /// address, where a cast of each changed field to `any IncrementalElements` cost a dynamic
  /// cast and a copy into the existential (about 760 instructions a change of the field).
  /// `type` is `ObjectIdentifier(Self.self)`, which the caller has at hand: the conforming
  /// type's code, generic over its parts, looked `Self` up in the runtime's metadata cache to
  /// make it (about 340 instructions a change of the field).
  ///
  /// With `staging`, the changed elements are staged in the cache (see
  /// `FieldCache.applyStagedElements`), not set. `prefix` is the path of the level the field
  /// is in: the field's edits are under `prefix` and `key`. `types`: the writer's, whose
  /// walkers walk a changed element that is a struct (see `FieldWalker.walkElement`).
  static func encodeIncrementally(
    at value: UnsafeRawPointer, type: ObjectIdentifier, key: String, previous: FieldCache?,
    staging: Bool, in prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache
}

extension IdentifiedArray: IncrementalElements where Element: Encodable {
  static func encodeIncrementally(
    at value: UnsafeRawPointer, type: ObjectIdentifier, key: String, previous: FieldCache?,
    staging: Bool, in prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache {
    try value.assumingMemoryBound(to: Self.self).pointee.encodeIncrementally(
      at: value, type: type, key: key, previous: previous, staging: staging, at: prefix,
      types: types)
  }

  /// Re-encodes and re-hashes only the elements of the chunks whose storage changed since the
  /// previous array (which the cache keeps alive: a shared chunk holds the same elements, and
  /// in a changed chunk equal bits are the same value). With the same ids in the same order,
  /// the changes are per element (`rows[id: 7].title`); otherwise (see `rebuild`) the field is
  /// diffed whole. A changed element whose type is walked field by field (a struct: see
  /// `WalkedTypes.Kind.walked`) and whose tree has an `id` is walked (see `walked`) when it
  /// had changed before, since the array was encoded (see `ElementCache.walkedFields`): over
  /// the fields its previous walk kept, an unchanged field keeps its encoding, and only what
  /// changed is encoded and diffed. Any other element is encoded whole and diffed with its
  /// previous tree.
  ///
  /// `address` is where this array is, and `type` its `ObjectIdentifier(Self.self)` (see the
  /// protocol's requirement): the next step's box is copied from there.
  ///
  /// ```swift
  /// let field = try rows.encodeIncrementally(
  ///   at: address, type: ObjectIdentifier(Rows.self), key: "rows", previous: cached,
  ///   staging: false, at: [], types: types)
  /// field.edits?.changes  // [.set(rows[id: 7].done, true)]
  /// ```
  private func encodeIncrementally(
    at address: UnsafeRawPointer, type: ObjectIdentifier, key: String, previous: FieldCache?,
    staging: Bool, at prefix: [TracePath.Component], types: WalkedTypes
  ) throws -> FieldCache {
    let fieldPath = FieldWalker.fieldPath(key, at: prefix, old: previous)
    guard let previous, previous.swiftValue.valueType == type,
      let elements = previous.elements
    else {
      return try encodeWhole(key: key, at: fieldPath, previous: previous)
    }
    let old = previous.swiftValue.unsafeValue(as: Self.self)
    guard old.count == count, elements.count == count else {
      return try rebuild(
        at: address, key: key, fieldPath: fieldPath, previous: previous, old: old,
        cache: elements)
    }
    var cache = elements
    var encoder = ElementEncoder(path: fieldPath)
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    // Asked once, at the first element that may be walked.
    var walksElements: Bool?
    // An array of one chunk (a list of at most 64) has its chunk's storage compared by
    // `differingIndices` alone: `chunksChanged`, unspecialized here, looked the chunk list's
    // type up four times (about 1,500 instructions a call) to compare that one chunk.
    let chunks = count <= Self.chunkLength ? (count > 0 ? [0] : []) : chunksChanged(since: old)
    for chunk in chunks {
      let (indices, elementsOfChunk, first) = Self.differingIndices(old, self, chunk: chunk)
      for index in indices {
        if old.ids[index] != ids[index] {
          // Moved (or replaced) elements: the ones that only moved keep their trees.
          return try rebuild(
            at: address, key: key, fieldPath: fieldPath, previous: previous, old: old,
            cache: elements)
        }
        // Read from the chunk `differingIndices` compared: the array's own subscript,
        // unspecialized here, looked the chunk list's type up for each element (about 500
        // instructions).
        let element = elementsOfChunk[index - first]
        // An element's first change is encoded whole, its next ones walked (see
        // `ElementCache.Entry.walked`).
        if cache.walkedFields(index) != nil {
          if walksElements == nil { walksElements = types.kind(of: element) == .walked }
          if walksElements == true,
            let walked = try Self.walked(
              element, at: index, in: cache, under: fieldPath, types: types)
          {
            changes.append(adopting: walked.edits.changes)
            paths.append(adopting: walked.edits.paths)
            if staging {
              cache.stage(index, tree: walked.tree, hash: walked.hash, fields: walked.fields)
            } else {
              cache.set(index, tree: walked.tree, hash: walked.hash, fields: walked.fields)
            }
            continue
          }
        }
        let tree = try encoder.encode(element, at: index)
        // The element's changes are found under its path: none is copied under it after. The
        // path is made with room for a field's key, and handed over, so that the diff appends
        // to it in place (copied, then grown, it cost two allocations a changed element).
        var elementPath: [TracePath.Component] = []
        elementPath.reserveCapacity(fieldPath.count + 2)
        elementPath.append(contentsOf: fieldPath)
        elementPath.append(Self.component(of: tree, index: index))
        let diff = TraceDiff.changesAndPaths(
          from: cache[index], to: tree, under: consume elementPath)
        changes.append(adopting: diff.changes)
        paths.append(adopting: diff.paths)
        if staging {
          cache.stage(index, tree: tree)
        } else {
          cache.set(index, tree: tree)
        }
      }
    }
    cache.rehash()
    return FieldCache(
      key: previous.hashedKey, path: fieldPath,
      swiftValue: previous.swiftValue.sibling(copying: address, inner: nil), elements: cache,
      edits: FieldCache.Edits(changes: changes, paths: paths, replaced: encoder.replaced).orNil)
  }

  /// A changed element walked field by field (see `FieldWalker.walkElement`) over the fields
  /// the cache kept of its previous walk, else over its previous tree's: its tree, hash,
  /// fields and edits (under the array's path `fieldPath` and `rows[id: …]`). nil, and the
  /// element is encoded whole, when its previous tree is not an object with an `id` (the
  /// component of its path), when the walk could not read it, when it replaced class instances
  /// (whose paths the whole encoding gives by position), or when its `id`'s encoding changed.
  private static func walked(
    _ element: Element, at index: Int, in cache: ElementCache,
    under fieldPath: [TracePath.Component], types: WalkedTypes
  ) throws -> (tree: TraceValue, hash: UInt64, fields: [FieldCache], edits: FieldCache.Edits)? {
    let kept = cache.walkedFields(index)
    let old = cache[index]
    guard let id = id(of: old) else { return nil }
    var elementPath = fieldPath
    elementPath.append(.id(id))
    guard
      let (fields, edits) = try FieldWalker.walkElement(
        element, over: kept?.isEmpty == false ? kept : nil, old: old, at: elementPath,
        types: types),
      edits.replaced.isEmpty
    else { return nil }
    let tree = FieldCache.objectValue(fields)
    // The path's component is the previous id's: the walk must have kept it.
    guard Self.id(of: tree) == id else { return nil }
    return (tree, FieldCache.objectHash(fields), fields, edits)
  }

  /// Elements added, removed or moved: reuses the tree and hash of every element whose id and
  /// bits are unchanged, and diffs the field whole. Elements that only moved keep their cache
  /// entries, reordered (see `moved`): rebuilt from their parts, a move of one of eight todos
  /// cost about 39,000 instructions (callgrind, record.throughput.app).
  private func rebuild(
    at address: UnsafeRawPointer, key: String, fieldPath: [TracePath.Component],
    previous: FieldCache, old: Self, cache: ElementCache
  ) throws -> FieldCache {
    var encoder = ElementEncoder(path: fieldPath)
    let oldIDs = old.ids
    let newIDs = ids
    // A short list finds an element by comparing ids: hashing a UUID costs more than comparing
    // it with a few others. Most elements are where they were.
    var oldIndex: [ID: Int] = [:]
    if oldIDs.count > Self.hashedAbove {
      oldIndex.reserveCapacity(oldIDs.count)
      for (index, id) in oldIDs.enumerated() { oldIndex[id] = index }
    }
    func oldPosition(_ index: Int) -> Int? {
      let id = newIDs[index]
      if index < oldIDs.count, oldIDs[index] == id { return index }
      if oldIDs.count > Self.hashedAbove { return oldIndex[id] }
      // An element moved, inserted or removed before shifts the ones after it by one.
      if index + 1 < oldIDs.count, oldIDs[index + 1] == id { return index + 1 }
      if index > 0, index - 1 < oldIDs.count, oldIDs[index - 1] == id { return index - 1 }
      // Compared one by one: `firstIndex(of:)`, unspecialized here, looked its result's and
      // the array's types up (about 2,200 instructions a call).
      for position in oldIDs.indices where oldIDs[position] == id { return position }
      return nil
    }
    if oldIDs.count == count, cache.count == count,
      let sources = movedSources(old, cache: cache, oldPosition: oldPosition)
    {
      return moved(at: address, fieldPath: fieldPath, previous: previous, cache: cache, sources)
    }
    var trees: [TraceValue] = []
    var hashes: [UInt64] = []
    var jsons: [[UInt8]?] = []
    var walked: [[FieldCache]?] = []
    trees.reserveCapacity(count)
    hashes.reserveCapacity(count)
    jsons.reserveCapacity(count)
    walked.reserveCapacity(count)
    // Where each element was, while every one is an old one with the same bits (a move).
    var sources: [Int]? = oldIDs.count == count && cache.count == count ? [] : nil
    sources?.reserveCapacity(count)
    // Arrays of one chunk each have their elements compared in place (an element copied out
    // through the generic subscript cost about 550 instructions).
    if old.chunkCount == 1, chunkCount == 1 {
      try old.chunk(0).withUnsafeBytes { oldBytes in
        try chunk(0).withUnsafeBytes { newBytes in
          try match(
            old, oldBytes: oldBytes, newBytes: newBytes, cache: cache, oldPosition: oldPosition,
            encoder: &encoder, trees: &trees, hashes: &hashes, jsons: &jsons, walked: &walked,
            sources: &sources)
        }
      }
    } else {
      try match(
        old, oldBytes: nil, newBytes: nil, cache: cache, oldPosition: oldPosition,
        encoder: &encoder, trees: &trees, hashes: &hashes, jsons: &jsons, walked: &walked,
        sources: &sources)
    }
    var elements = ElementCache(trees: trees, hashes: hashes, jsons: jsons)
    if walked.contains(where: { $0 != nil }) { elements.keep(walked: walked) }
    let before = previous.value
    // The elements only moved: their trees are the old ones, so the diff needs only where
    // each went (the same changes as the whole diff, without comparing trees or ids).
    let diff =
      if let sources, case .array(let oldTrees) = before,
        let moved = TraceDiff.reordered(oldTrees, sources: sources, prefix: fieldPath)
      {
        moved
      } else {
        TraceDiff.whole(at: fieldPath, from: before, to: .array(trees))
      }
    let (changes, paths) = diff
    // `previous` holds a `Self` (see `encodeIncrementally`): its box is made through that
    // one's class, from this array where it is, without looking `ValueBox<Self>` or `Self` up.
    return FieldCache(
      key: previous.hashedKey, path: fieldPath,
      swiftValue: previous.swiftValue.sibling(copying: address, inner: nil), elements: elements,
      edits: FieldCache.Edits(changes: changes, paths: paths, replaced: encoder.replaced).orNil)
  }

  /// Where each element was in `old` (at `oldPosition`), when every one is an old one with the
  /// same bits (the elements only moved), read in place in the arrays' only chunks when each
  /// has one (see `sameBits`); nil at the first that is not.
  private func movedSources(
    _ old: Self, cache: ElementCache, oldPosition: (Int) -> Int?
  ) -> [Int]? {
    func sources(_ oldBytes: UnsafeRawBufferPointer?, _ newBytes: UnsafeRawBufferPointer?)
      -> [Int]?
    {
      var sources: [Int] = []
      sources.reserveCapacity(count)
      for index in 0..<count {
        guard let match = oldPosition(index), match < cache.count,
          Self.sameBits(old, at: match, in: oldBytes, self, at: index, in: newBytes)
        else { return nil }
        sources.append(match)
      }
      return sources
    }
    guard old.chunkCount == 1, chunkCount == 1 else { return sources(nil, nil) }
    return old.chunk(0).withUnsafeBytes { oldBytes in
      chunk(0).withUnsafeBytes { newBytes in sources(oldBytes, newBytes) }
    }
  }

  /// The field of elements that only moved (see `movedSources`): the cache's entries in their
  /// new order (`ElementCache.reordered`), and the diff from where each went, as `rebuild` makes
  /// both from the same elements.
  private func moved(
    at address: UnsafeRawPointer, fieldPath: [TracePath.Component], previous: FieldCache,
    cache: ElementCache, _ sources: [Int]
  ) -> FieldCache {
    let elements = cache.reordered(sources)
    let before = cache.value
    let (changes, paths) =
      if case .array(let oldTrees) = before,
        let moved = TraceDiff.reordered(oldTrees, sources: sources, prefix: fieldPath)
      {
        moved
      } else {
        TraceDiff.whole(at: fieldPath, from: before, to: elements.value)
      }
    return FieldCache(
      key: previous.hashedKey, path: fieldPath,
      swiftValue: previous.swiftValue.sibling(copying: address, inner: nil), elements: elements,
      edits: FieldCache.Edits(changes: changes, paths: paths).orNil)
  }

  /// `rebuild`'s pass over the elements: each one's tree, hash, JSON and walked fields (see
  /// `ElementCache.Entry.walked`: their paths are by id, so they stay right where the element
  /// moves), reused from `cache` when its id was at `oldPosition` in `old` with the same bits
  /// (read in `oldBytes` and `newBytes`, the bytes of the arrays' only chunks, when given),
  /// else encoded (and walked at its next change); `sources` (when not nil) where each came
  /// from, set to nil when one did not come from `old`.
  private func match(
    _ old: Self, oldBytes: UnsafeRawBufferPointer?, newBytes: UnsafeRawBufferPointer?,
    cache: ElementCache, oldPosition: (Int) -> Int?, encoder: inout ElementEncoder,
    trees: inout [TraceValue], hashes: inout [UInt64], jsons: inout [[UInt8]?],
    walked: inout [[FieldCache]?], sources: inout [Int]?
  ) throws {
    for index in 0..<count {
      if let match = oldPosition(index), match < cache.count,
        Self.sameBits(old, at: match, in: oldBytes, self, at: index, in: newBytes)
      {
        trees.append(cache[match])
        hashes.append(cache.elementHash(match))
        jsons.append(cache.json(match))
        walked.append(cache.walkedFields(match))
        sources?.append(match)
      } else {
        let tree = try encoder.encode(self[index], at: index)
        trees.append(tree)
        hashes.append(MerkleHash.isContainer(tree) ? MerkleHash.hash(tree) : 0)
        jsons.append(nil)
        walked.append([])
        sources = nil
      }
    }
  }

  /// Above this many elements, `rebuild` finds the old position of an id by hashing.
  private static var hashedAbove: Int { 16 }

  /// The first encoding of the field (or one that follows a field of another type).
  private func encodeWhole(
    key: String, at fieldPath: [TracePath.Component], previous: FieldCache?
  ) throws -> FieldCache {
    var encoder = ElementEncoder(path: fieldPath)
    var trees: [TraceValue] = []
    trees.reserveCapacity(count)
    for chunk in 0..<chunkCount {
      try encoder.encodeEach(self.chunk(chunk), from: chunkRange(chunk).lowerBound) {
        trees.append($0)
      }
    }
    var changes: [TraceChange] = []
    var paths: [TracePath] = []
    if let previous {
      (changes, paths) = TraceDiff.whole(at: fieldPath, from: previous.value, to: .array(trees))
    }
    return FieldCache(
      key: previous?.hashedKey ?? MerkleHash.Key(key), path: fieldPath,
      swiftValue: ValueBox(self), elements: ElementCache(trees: trees),
      edits: FieldCache.Edits(changes: changes, paths: paths, replaced: encoder.replaced).orNil)
  }

  /// `rows[id: 7]` when the element is an object with an `id` (the ids of an identified array
  /// are distinct), else `rows[3]`.
  private static func component(of tree: TraceValue, index: Int) -> TracePath.Component {
    if let id = id(of: tree) { return .id(id) }
    return .index(index)
  }

  /// An element's `id` field, when its tree is an object that has one.
  private static func id(of tree: TraceValue) -> TraceValue? {
    guard case .object(let fields) = tree else { return nil }
    return fields.first(where: { $0.key == "id" })?.value
  }

  /// The positions in chunk `chunk` whose elements' bits differ between the two arrays (of
  /// equal counts, so their chunks cover the same positions). Their encodings are compared
  /// next (not `==`, which may compare less than the element holds: see `Equality`).
  ///
  /// Only `size` bytes are compared, not `stride`: copying an array copies its elements field
  /// by field, so the padding after the last field is garbage (every element of a copied chunk
  /// differed in it when measured). Padding between fields can differ too: such an element is
  /// encoded again and found unchanged.
  ///
  /// Also returns `new`'s chunk and the index of its first element, so that the caller reads
  /// the changed elements from it.
  private static func differingIndices(
    _ old: Self, _ new: Self, chunk: Int
  ) -> (indices: [Int], chunk: [Element], first: Int) {
    let stride = MemoryLayout<Element>.stride
    let size = MemoryLayout<Element>.size
    let range = new.chunkRange(chunk)
    let newChunk = new.chunk(chunk)
    guard size > 0 else { return ([], newChunk, range.lowerBound) }
    let oldChunk = old.chunk(chunk)
    var indices: [Int] = []
    oldChunk.withUnsafeBytes { oldBytes in
      newChunk.withUnsafeBytes { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress,
          oldBase != newBase
        else { return }
        for offset in 0..<range.count
        where memcmp(oldBase + offset * stride, newBase + offset * stride, size) != 0 {
          indices.append(range.lowerBound + offset)
        }
      }
    }
    return (indices, newChunk, range.lowerBound)
  }

  /// Whether element `oldIndex` of `old` and element `newIndex` of `new` have the same bits:
  /// read in place in `oldBytes` and `newBytes` (the bytes of the arrays' only chunks) when
  /// given, else copied out (see `sameBits(_:_:)`).
  private static func sameBits(
    _ old: Self, at oldIndex: Int, in oldBytes: UnsafeRawBufferPointer?,
    _ new: Self, at newIndex: Int, in newBytes: UnsafeRawBufferPointer?
  ) -> Bool {
    guard let oldBase = oldBytes?.baseAddress, let newBase = newBytes?.baseAddress else {
      return sameBits(old[oldIndex], new[newIndex])
    }
    // `size`, not `stride`: what `withUnsafeBytes(of:)` of an element holds (see
    // `differingIndices` on the padding after the last field).
    let stride = MemoryLayout<Element>.stride
    let size = MemoryLayout<Element>.size
    return memcmp(oldBase + oldIndex * stride, newBase + newIndex * stride, size) == 0
  }

  /// Whether two elements have the same bits (the older one is kept alive by the cache).
  private static func sameBits(_ old: Element, _ new: Element) -> Bool {
    withUnsafeBytes(of: old) { oldBytes in
      withUnsafeBytes(of: new) { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress else {
          return true
        }
        return memcmp(oldBase, newBase, oldBytes.count) == 0
      }
    }
  }
}

/// Encodes an identified array's elements as values only, noting where class instances were
/// replaced (`rows[3].cache`, under the field's path).
private struct ElementEncoder {
  /// The field's path (its level's path and its key).
  let path: [TracePath.Component]
  private let encoder = TraceValueEncoder()
  private(set) var replaced: [TracePath] = []

  init(path: [TracePath.Component]) {
    self.path = path
  }

  mutating func encode<Element: Encodable>(_ element: Element, at index: Int) throws
    -> TraceValue
  {
    let (tree, paths) = try encoder.encodeReplacingClassInstances(element)
    for replacement in paths {
      replaced.append(replacement.prefixed(by: path + [.index(index)]))
    }
    return tree
  }

  /// Encodes `elements`, the first at position `start`, in order, as `encode(_:at:)` encodes
  /// each (see `TraceValueEncoder.encodeEachReplacingClassInstances`).
  mutating func encodeEach<Element: Encodable>(
    _ elements: [Element], from start: Int, _ body: (TraceValue) -> Void
  ) throws {
    let fieldPath = path
    var replaced = self.replaced
    self.replaced = []
    defer { self.replaced = replaced }
    try elements.withUnsafeBufferPointer { buffer in
      try encoder.encodeEachReplacingClassInstances(buffer) { offset, tree, paths in
        for path in paths {
          replaced.append(path.prefixed(by: fieldPath + [.index(start + offset)]))
        }
        body(tree)
      }
    }
  }
}

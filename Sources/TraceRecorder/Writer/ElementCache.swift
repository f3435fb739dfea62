import TraceKit

/// The encoded elements of an identified-array field, in runs of `MerkleHash.runLength`: each
/// run (element trees with their hashes) is its own copy-on-write array, so the next step's
/// cache shares every run it does not change (changing one element copies one run and the
/// list of runs, not the field), and the previous step's cache can stay alive for comparison
/// without costing a copy.
///
/// ```swift
/// var cache = ElementCache(trees: encodedRows)   // 10,000 rows: 157 runs
/// cache.set(517, tree: newRow)
/// cache.rehash()                                  // run 8 and the array, not 10,000 rows
/// cache.hash == cache.value.stableHash            // true
/// ```
struct ElementCache {
  /// An element's tree, its JSON (for keyframes: see `writeJSON`) and, when it is a
  /// container, its head word and stable hash (else 0 and 0).
  private struct Entry {
    var tree: TraceValue
    var hash: UInt64
    /// `MerkleHash.head(tree)`: a run is hashed from its containers' heads and hashes without
    /// reading their trees (a copy of each tree, a retain and a release, was most of the cost
    /// of hashing a run of 64).
    var head: UInt64
    /// The tree's JSON, or the fields of the element's last walk (see `Kept`).
    var kept: Kept

    /// The tree's JSON; empty (an element's JSON never is) for an element set since the last
    /// keyframe, which writes it, and for a walked element, whose JSON each keyframe writes
    /// without keeping it. Most elements that change change again before the next keyframe,
    /// and writing each one's JSON on every change cost more than encoding it.
    var json: [UInt8] {
      switch kept {
      case .unchanged(let json), .changed(let json): json
      case .walked: []
      }
    }

    /// `json`: the tree's JSON when already written (an element reused from another cache),
    /// `[]` to leave it to the next keyframe, nil to write it now (the first encoding of the
    /// field: its keyframe then copies bytes, as before).
    init(tree: TraceValue, hash: UInt64, json: [UInt8]?) {
      self.tree = tree
      self.hash = hash
      head = MerkleHash.head(tree)
      if let json {
        kept = .unchanged(json)
      } else {
        var written: [UInt8] = []
        tree.writeJSON(into: &written)
        kept = .unchanged(written)
      }
    }

    /// An element set: `walked`, the fields of its walk, or empty when it was encoded whole.
    init(tree: TraceValue, hash: UInt64, walked: [FieldCache]) {
      self.tree = tree
      self.hash = hash
      head = MerkleHash.head(tree)
      kept = walked.isEmpty ? .changed([]) : .walked(walked)
    }
  }

  /// What an element keeps besides its tree and hashes: one word, so that the entries of a
  /// large array do not grow.
  private enum Kept {
    /// Not set since the array was encoded (or rebuilt): its JSON (empty when a keyframe
    /// writes it).
    case unchanged([UInt8])
    /// Set after it was encoded whole: its JSON, empty until the next keyframe writes it. Its
    /// next change walks it over its tree's fields (see `walkedFields`).
    case changed([UInt8])
    /// Set by a walk (see `FieldWalker.walkElement`): its fields as the walk left them, which
    /// its next walk compares with. Most elements of a large array change once in a while,
    /// and a walk with only the tree to compare with costs more than encoding the element, so
    /// only an element that changed before is walked.
    case walked([FieldCache])

    /// Where a kept JSON's bytes are and how many: `start` is nil when none is kept.
    struct Bytes {
      var start: UnsafePointer<UInt8>?
      var count: Int
    }

    /// The kept JSON's bytes, read in place: valid while this value (or a copy) is alive and
    /// not changed (a native array's elements do not move while its buffer lives). Read this
    /// way, with no call before the element is let go of, the JSON is not retained and released.
    var bytes: Bytes {
      switch self {
      case .unchanged(let json), .changed(let json):
        json.withUnsafeBufferPointer {
          Bytes(start: $0.isEmpty ? nil : $0.baseAddress, count: $0.count)
        }
      case .walked: Bytes(start: nil, count: 0)
      }
    }
  }

  private(set) var count: Int
  /// Trees and hashes in one array per run: one retain per run when the list is copied.
  private var runs: [[Entry]]
  /// Each run's hash, for an array hashed by runs (`hashedByRuns`); empty for a shorter one,
  /// whose hash is its elements' (see `arrayHash`), so no run hash of it is ever read.
  private var runHashes: [UInt64]
  private var dirtyRuns: [Int] = []
  /// The array's stable hash (after `rehash()` when elements were set, and after
  /// `applyStaged()` when elements were staged).
  private(set) var hash: UInt64
  /// Elements encoded but not yet set (see `stage`).
  private var staged: [Staged] = []

  /// An element staged: as `set` takes it.
  private struct Staged {
    var index: Int
    var tree: TraceValue
    var hash: UInt64?
    var walked: [FieldCache]
  }

  private static var runLength: Int { MerkleHash.runLength }

  /// Caches `flat`, hashing each element unless its hashes are given and writing its JSON
  /// unless it is given (`jsons`, nil where it is not; empty where a keyframe writes it).
  init(
    trees flat: [TraceValue], hashes flatHashes: [UInt64]? = nil, jsons: [[UInt8]?]? = nil
  ) {
    count = flat.count
    runs = []
    runHashes = []
    hash = 0
    // The JSON written here goes into one buffer first and is then copied at its size:
    // written into its own array from empty, each element's grew through several allocations.
    var scratch = JSONBuffer()
    layOut { index in
      let tree = flat[index]
      let given: [UInt8]? = jsons?[index] ?? nil
      return Entry(
        tree: tree, hash: flatHashes?[index] ?? Self.hash(of: tree),
        json: given ?? Self.json(of: tree, using: &scratch))
    }
  }

  /// Lays the `count` entries out in runs, `entry(position)` the one at each position, with
  /// the run hashes and the array's hash.
  private mutating func layOut(_ entry: (Int) -> Entry) {
    runs = []
    runs.reserveCapacity((count + Self.runLength - 1) / Self.runLength)
    runHashes = []
    var start = 0
    while start < count {
      let end = Swift.min(start + Self.runLength, count)
      var run: [Entry] = []
      run.reserveCapacity(end - start)
      for position in start..<end { run.append(entry(position)) }
      if hashedByRuns { runHashes.append(Self.runHash(run)) }
      runs.append(run)
      start = end
    }
    hash = arrayHash()
  }

  /// The element tree at a position.
  subscript(index: Int) -> TraceValue {
    runs[index / Self.runLength][index % Self.runLength].tree
  }

  /// The element hash at a position (0 for a scalar element).
  func elementHash(_ index: Int) -> UInt64 {
    runs[index / Self.runLength][index % Self.runLength].hash
  }

  /// The element JSON at a position: empty when no keyframe wrote it yet.
  func json(_ index: Int) -> [UInt8] {
    runs[index / Self.runLength][index % Self.runLength].json
  }

  /// The fields of the element at a position as its last walk left them (their encodings are
  /// its tree's fields); empty for an element set after it was encoded whole, which its next
  /// change walks over its tree's fields; nil for one not set since the array was encoded
  /// (see `Kept`).
  func walkedFields(_ index: Int) -> [FieldCache]? {
    switch runs[index / Self.runLength][index % Self.runLength].kept {
    case .unchanged: nil
    case .changed: []
    case .walked(let fields): fields
    }
  }

  /// Gives the elements what `walkedFields` gave of them in the cache they come from
  /// (`walked`, one per element): their walks' fields, or that they changed before.
  mutating func keep(walked: [[FieldCache]?]) {
    for index in walked.indices {
      guard let fields = walked[index] else { continue }
      let run = index / Self.runLength
      let position = index % Self.runLength
      if !fields.isEmpty {
        runs[run][position].kept = .walked(fields)
      } else if case .unchanged(let json) = runs[run][position].kept {
        runs[run][position].kept = .changed(json)
      }
    }
  }

  /// The bytes of the elements' JSON kept now, with their commas and brackets: room for a first
  /// keyframe's (see `IncrementalEncoder.Result.jsonSizeHint`). O(count), read once a
  /// recording: kept as a stored count, it made the cache a word longer, and a todos10k step
  /// (which copies and destroys the field's encoding) about 550 instructions dearer.
  var jsonCount: Int {
    var total = 2
    for run in runs {
      // Through the buffer: iterating the entries copies each one. Counted from `bytes`: `json`
      // copies the array (a retain and a release), and cost 63 instructions an element, not 11.
      run.withUnsafeBufferPointer { entries in
        for index in entries.indices { total += entries[index].kept.bytes.count + 1 }
      }
    }
    return total
  }

  /// The whole array as one tree: O(count), for keyframes and whole-field diffs only.
  var value: TraceValue {
    var flat: [TraceValue] = []
    flat.reserveCapacity(count)
    for run in runs {
      // Through the buffer: iterating the entries copies each one.
      run.withUnsafeBufferPointer { entries in
        for index in entries.indices { flat.append(entries[index].tree) }
      }
    }
    return .array(flat)
  }

  /// Writes `value`'s JSON from the elements' cached JSON, writing and caching the JSON of
  /// the elements changed since the last keyframe: a keyframe of a large array costs a copy of
  /// its bytes, not the encoding of every element.
  mutating func writeJSON(into buffer: inout JSONBuffer) {
    buffer.appendByte(UInt8(ascii: "["))
    // The elements of a run whose JSON was written from their trees here, to be kept: their
    // positions in the run and where their bytes are in `buffer`.
    var written: [(index: Int, start: Int, count: Int)] = []
    for run in runs.indices {
      // Read through the buffer (iterating the entries copies each one): a run is changed,
      // in place, only to keep the JSON written for its elements.
      runs[run].withUnsafeBufferPointer { entries in
        Self.writeJSON(of: entries, commaFirst: run > 0, into: &buffer, written: &written)
      }
      guard !written.isEmpty else { continue }
      let bytes = buffer.bytes
      runs[run].withUnsafeMutableBufferPointer { entries in
        for element in written {
          let json = [UInt8](
            UnsafeBufferPointer(rebasing: bytes[element.start..<element.start + element.count]))
          if case .changed = entries[element.index].kept {
            entries[element.index].kept = .changed(json)
          } else {
            entries[element.index].kept = .unchanged(json)
          }
        }
      }
      written.removeAll(keepingCapacity: true)
    }
    buffer.appendByte(UInt8(ascii: "]"))
  }

  /// Writes the JSON of a run's elements, each after a comma but the first when not
  /// `commaFirst`, and notes in `written` the ones written from their trees that keep it.
  ///
  /// The kept JSON is read first: each element's bytes (address and count) into a table, with
  /// no call between reading the element and letting go of it, so the compiler reads it in
  /// place (an element's JSON copied out and copied into the buffer was retained and released
  /// around the copy). Each stretch of elements with kept JSON is then copied in one
  /// reservation. The addresses stay valid: the run holds the bytes, and nothing changes it here.
  /// Element by element through `appendBytes` and `appendByte`, a keyframe of 10,000 todos cost
  /// about 195 instructions an element; this way, about 80.
  private static func writeJSON(
    of entries: UnsafeBufferPointer<Entry>, commaFirst: Bool, into buffer: inout JSONBuffer,
    written: inout [(index: Int, start: Int, count: Int)]
  ) {
    withUnsafeTemporaryAllocation(of: Kept.Bytes.self, capacity: entries.count) { table in
      for index in entries.indices { table[index] = entries[index].kept.bytes }
      var comma = commaFirst
      var index = 0
      while index < entries.count {
        var end = index
        var count = comma ? 0 : -1
        while end < entries.count, table[end].start != nil {
          count += table[end].count + 1
          end += 1
        }
        if end > index {
          buffer.append(count: count) { target in
            var at = target
            for stretch in index..<end {
              if comma {
                at.pointee = UInt8(ascii: ",")
                at += 1
              }
              comma = true
              UnsafeMutableRawPointer(at).copyMemory(
                from: table[stretch].start!, byteCount: table[stretch].count)
              at += table[stretch].count
            }
          }
          index = end
          guard index < entries.count else { break }
        }
        // No JSON kept: written from the tree.
        if comma { buffer.appendByte(UInt8(ascii: ",")) }
        comma = true
        let start = buffer.count
        entries[index].tree.writeJSON(into: &buffer)
        switch entries[index].kept {
        case .unchanged, .changed: written.append((index, start, buffer.count - start))
        case .walked: break
        }
        index += 1
      }
    }
  }

  /// The same elements in another order (a move of identified elements): element `position`
  /// is this cache's element `sources[position]` (`sources` a permutation of its positions),
  /// with its tree, hashes, JSON and walked fields, so the cache is what `init(trees:…)` and
  /// `keep(walked:)` make of them, without making any entry again. Hashed anew.
  func reordered(_ sources: [Int]) -> ElementCache {
    var moved = self
    moved.layOut { position in
      let source = sources[position]
      return runs[source / Self.runLength][source % Self.runLength]
    }
    return moved
  }

  /// Replaces the tree at a position (same count); `rehash()` updates the hashes. `hash`: the
  /// tree's hash when known (a walked element's, from its fields' cached hashes), `walked`:
  /// its fields when walked, else empty (see `Entry.walked`).
  mutating func set(
    _ index: Int, tree: TraceValue, hash: UInt64? = nil, fields walked: [FieldCache] = []
  ) {
    let run = index / Self.runLength
    runs[run][index % Self.runLength] = Entry(
      tree: tree, hash: hash ?? Self.hash(of: tree), walked: walked)
    if dirtyRuns.last != run { dirtyRuns.append(run) }
  }

  /// Whether elements wait to be set (`stage`).
  var hasStaged: Bool { !staged.isEmpty }

  /// Keeps a new tree for a position, set by `applyStaged()`: a writer stages while the
  /// previous step's cache still shares the runs, and applies once it let go of them, so the
  /// runs change in place instead of being copied.
  mutating func stage(
    _ index: Int, tree: TraceValue, hash: UInt64? = nil, fields walked: [FieldCache] = []
  ) {
    staged.append(Staged(index: index, tree: tree, hash: hash, walked: walked))
  }

  /// Sets the staged trees and re-hashes.
  mutating func applyStaged() {
    for element in staged {
      set(element.index, tree: element.tree, hash: element.hash, fields: element.walked)
    }
    staged.removeAll()
    rehash()
  }

  /// Re-hashes the runs changed by `set` and the array.
  mutating func rehash() {
    guard !dirtyRuns.isEmpty else { return }
    if hashedByRuns {
      for run in dirtyRuns { runHashes[run] = Self.runHash(runs[run]) }
    }
    dirtyRuns.removeAll(keepingCapacity: true)
    hash = arrayHash()
  }

  /// `tree`'s JSON in an array of its size, written in `scratch` (emptied first).
  private static func json(of tree: TraceValue, using scratch: inout JSONBuffer) -> [UInt8] {
    scratch.removeAll()
    tree.writeJSON(into: &scratch)
    // Copied from a buffer pointer: this initializer is specialized for bytes here, where
    // `init(unsafeUninitializedCapacity:)` allocated through the library's generic code (a
    // metadata look-up of the storage class per element, about 690 instructions in all).
    return [UInt8](scratch.bytes)
  }

  private static func hash(of tree: TraceValue) -> UInt64 {
    MerkleHash.isContainer(tree) ? MerkleHash.hash(tree) : 0
  }

  private static func runHash(_ run: [Entry]) -> UInt64 {
    var hasher = MerkleHash.RunHasher()
    add(run, to: &hasher)
    return hasher.finalize()
  }

  /// Through the buffer: iterating the entries copies each one (three retains and releases).
  /// A container is added by its head and hash, gathered with the containers next to it and
  /// fed in one call; a scalar by its tree.
  private static func add(_ run: [Entry], to hasher: inout MerkleHash.RunHasher) {
    run.withUnsafeBufferPointer { entries in
      guard !entries.isEmpty else { return }
      withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * entries.count) { words in
        var pending = 0
        for index in entries.indices {
          let head = entries[index].head
          if head != 0 {
            words[pending] = head
            words[pending + 1] = entries[index].hash
            pending += 2
          } else {
            hasher.add(containerWords: UnsafeBufferPointer(rebasing: words[..<pending]))
            pending = 0
            hasher.add(entries[index].tree, hash: 0)
          }
        }
        hasher.add(containerWords: UnsafeBufferPointer(rebasing: words[..<pending]))
      }
    }
  }

  /// Whether the array's hash is made of its run hashes (more than `runLength` elements).
  private var hashedByRuns: Bool { count > Self.runLength }

  private func arrayHash() -> UInt64 {
    if hashedByRuns {
      return MerkleHash.arrayHash(count: count, runHashes: runHashes)
    }
    var hasher = MerkleHash.RunHasher(smallArrayCount: count)
    if !runs.isEmpty { Self.add(runs[0], to: &hasher) }
    return hasher.finalize()
  }
}

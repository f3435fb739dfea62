/// The pieces of `TraceValue.stableHash`, for a writer that caches subtree hashes and
/// re-hashes only what changed.
///
/// ```swift
/// let hashes = elements.map(MerkleHash.hash)  // 200 elements
/// let runs = MerkleHash.runHashes(elements, hashes: hashes)  // 4 runs
/// MerkleHash.arrayHash(count: 200, runHashes: runs)
///   == TraceValue.array(elements).stableHash  // true
/// ```
package enum MerkleHash {
  /// The number of elements per run in an array longer than this.
  package static let runLength = 64

  /// The value's stable hash (see `TraceValue.stableHash` for the definition).
  package static func hash(_ value: TraceValue) -> UInt64 {
    switch value {
    case .array(let elements):
      if elements.count <= runLength {
        var hasher = StableHasher()
        hasher.combine(MerkleHash.arrayHead(count: elements.count))
        for element in elements { combineChild(element, into: &hasher) }
        return hasher.finalize()
      }
      var hasher = StableHasher()
      hasher.combine(MerkleHash.arrayHead(count: elements.count))
      var start = 0
      while start < elements.count {
        let end = Swift.min(start + runLength, elements.count)
        var run = StableHasher()
        for index in start..<end { combineChild(elements[index], into: &run) }
        hasher.combine(run.finalize())
        start = end
      }
      return hasher.finalize()
    default:
      var hasher = StableHasher()
      combineWords(value, into: &hasher)
      return hasher.finalize()
    }
  }

  /// Whether the value is written inside a container as its head word and hash (arrays,
  /// objects, enum cases, reflected values) rather than inline.
  @inline(__always)
  package static func isContainer(_ value: TraceValue) -> Bool {
    switch value {
    case .array, .object, .enumCase, .reflected: return true
    default: return false
    }
  }

  /// The hash of each run of `runLength` elements, given each element's hash (only the hashes
  /// of container elements are read; pass anything for scalars).
  package static func runHashes(_ elements: [TraceValue], hashes: [UInt64]) -> [UInt64] {
    var runs: [UInt64] = []
    runs.reserveCapacity((elements.count + runLength - 1) / runLength)
    var start = 0
    while start < elements.count {
      let end = Swift.min(start + runLength, elements.count)
      var hasher = StableHasher()
      for index in start..<end {
        combineChild(elements[index], hash: hashes[index], into: &hasher)
      }
      runs.append(hasher.finalize())
      start = end
    }
    return runs
  }

  /// The hash of one run: `elements` are the run's elements (at most `runLength`), `hashes`
  /// their hashes.
  package static func runHash(_ elements: [TraceValue], hashes: [UInt64]) -> UInt64 {
    var hasher = StableHasher()
    for index in elements.indices {
      combineChild(elements[index], hash: hashes[index], into: &hasher)
    }
    return hasher.finalize()
  }

  /// The hash of an array of `count` elements (more than `runLength`) from its run hashes.
  package static func arrayHash(count: Int, runHashes: [UInt64]) -> UInt64 {
    var hasher = StableHasher()
    hasher.combine(MerkleHash.arrayHead(count: count))
    runHashes.withUnsafeBufferPointer { hasher.combine($0) }
    return hasher.finalize()
  }

  /// The array's hash from its elements' hashes (any length: longer arrays are hashed by
  /// runs).
  package static func arrayHash(_ elements: [TraceValue], hashes: [UInt64]) -> UInt64 {
    guard elements.count <= runLength else {
      return arrayHash(
        count: elements.count, runHashes: runHashes(elements, hashes: hashes))
    }
    var hasher = StableHasher()
    hasher.combine(MerkleHash.arrayHead(count: elements.count))
    for index in elements.indices {
      combineChild(elements[index], hash: hashes[index], into: &hasher)
    }
    return hasher.finalize()
  }

  /// Hashes one run of array elements (or a whole array of at most `runLength`, after its
  /// head word: see `arrayHash(_:hashes:)`) from the elements and their cached hashes.
  ///
  /// ```swift
  /// var run = MerkleHash.RunHasher()
  /// for index in 64..<128 { run.add(elements[index], hash: hashes[index]) }
  /// run.finalize()  // MerkleHash.runHashes(elements, hashes: hashes)[1]
  /// ```
  package struct RunHasher {
    private var hasher = StableHasher()

    package init() {}

    /// Starts with an array's head word: for an array of at most `runLength` elements, whose
    /// hash is its elements written after its head.
    package init(smallArrayCount count: Int) {
      hasher.combine(MerkleHash.arrayHead(count: count))
    }

    /// An element; `hash` is its hash when it is a container (read only then).
    package mutating func add(_ value: TraceValue, hash: UInt64) {
      MerkleHash.combineChild(value, hash: hash, into: &hasher)
    }

    /// A container element by its head word (`MerkleHash.head`) and hash: the words
    /// `add(_:hash:)` writes for it, without reading the element.
    package mutating func add(containerHead head: UInt64, hash: UInt64) {
      hasher.combine(head, hash)
    }

    /// Container elements in order, each by its head word and hash (`words`: head, hash,
    /// head, hash, …): the words `add(containerHead:hash:)` writes for each, fed four at a
    /// time (one call a container cost about 35 instructions; a run of 64 is rehashed at
    /// every step that changes one of its elements).
    package mutating func add(containerWords words: UnsafeBufferPointer<UInt64>) {
      hasher.combine(words)
    }

    package func finalize() -> UInt64 {
      hasher.finalize()
    }
  }

  /// A field's key as an object's hash writes it (its head word and its UTF-8 packed into
  /// words), worked out once: a cache that keeps a field from one step to the next hashes its
  /// level again without reading the key's UTF-8 again. Keys of more than 16 bytes are
  /// written from the string each time.
  ///
  /// ```swift
  /// let key = MerkleHash.Key("count")
  /// var object = MerkleHash.ObjectHasher(fieldCount: 1)
  /// object.add(key: key, value: .int(3), hash: nil)
  /// object.finalize()  // TraceValue.object([TraceField("count", .int(3))]).stableHash
  /// ```
  package struct Key {
    package let string: String
    /// `0x05 | count << 8`, or 0 when the key is longer than two words.
    private let head: UInt64
    private let first: UInt64
    private let second: UInt64

    package init(_ string: String) {
      self.string = string
      var words = ThreeWords()
      MerkleHash.combine(string: string, into: &words)
      (head, first, second) = words.count <= 3 ? words.words : (0, 0, 0)
    }

    @inline(__always)
    fileprivate func combine(into hasher: inout StableHasher) {
      guard head != 0 else { return MerkleHash.combine(string: string, into: &hasher) }
      hasher.combine(head)
      let count = head >> 8
      if count > 0 { hasher.combine(first) }
      if count > 8 { hasher.combine(second) }
    }
  }

  /// `hash(_:)` for a caller that hashes one object after another, each a few changes from
  /// the one before (`inspector replay` hashes every state it rebuilds): the object's words
  /// are kept from the last one, and only the words of a field that changed are written
  /// again. A field holding a container is hashed again every time: the memo keeps no copy
  /// of it, so a caller that changes it in place still owns it alone. Any value hashes as
  /// `hash(_:)` hashes it.
  ///
  /// The words' hash (xxHash64) runs four lanes, each over every fourth word, stripe by
  /// stripe: the memo keeps each lane's value before each stripe, and a lane runs again
  /// only from the first stripe where one of its words changed (a counter's step changes
  /// one word: one lane runs over three of its four stripes, not four lanes over four).
  ///
  /// ```swift
  /// let memo = MerkleHash.FieldMemo()
  /// memo.hash(state) == state.stableHash  // true; the next state's unchanged fields are kept
  /// ```
  package final class FieldMemo {
    /// What a field held when its words were written.
    private struct Field {
      var key: String
      /// The value, when it is not a container (kept by its bits: see `sameValueBits`); `.null`
      /// for a container, which is written again every time.
      var scalar: TraceValue
      var isScalar: Bool
      /// Where the value's words are in `words`, and how many there are.
      var start: Int
      var count: Int
    }

    // One hashing thread, asked at every step: no dynamic exclusivity checks. Buffers, not
    // arrays: an array written in place is checked for uniqueness, through a closure, at
    // every step.
    @exclusivity(unchecked) private var fields = UnsafeMutablePointer<Field>.allocate(capacity: 0)
    @exclusivity(unchecked) private var fieldCount = 0
    @exclusivity(unchecked) private var fieldCapacity = 0
    /// The object's words: its head word, then each field's key and value.
    @exclusivity(unchecked) private var words = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    @exclusivity(unchecked) private var wordCount = 0
    @exclusivity(unchecked) private var wordCapacity = 0
    /// The storage `rebuild` writes the words into before they are copied to `words`.
    @exclusivity(unchecked) private var spare: [UInt64] = []
    /// Each lane's value before each stripe of `words`, and after the last: lane `j` before
    /// stripe `s` at `4 * s + j`.
    @exclusivity(unchecked) private var lanes = UnsafeMutablePointer<UInt64>.allocate(
      capacity: 4)
    @exclusivity(unchecked) private var laneCapacity = 4
    /// For each lane, the first stripe whose word of that lane changed since `lanes` were
    /// worked out (`Int.max`: none).
    @exclusivity(unchecked) private var stale = UnsafeMutablePointer<Int>.allocate(capacity: 4)

    package init() {
      stale.initialize(repeating: 0, count: 4)
      (lanes[0], lanes[1], lanes[2], lanes[3]) = StableHasher.seedLanes
    }

    deinit {
      fields.deinitialize(count: fieldCount)
      fields.deallocate()
      words.deallocate()
      lanes.deallocate()
      stale.deallocate()
    }

    package func hash(_ value: TraceValue) -> UInt64 {
      guard case .object(let current) = value else { return MerkleHash.hash(value) }
      if !update(current) { rebuild(current) }
      let stripes = wordCount / 4
      for lane in 0..<4 where stale[lane] < stripes {
        var value = lanes[4 &* stale[lane] &+ lane]
        for stripe in stale[lane]..<stripes {
          value = StableHasher.round(value, words[4 &* stripe &+ lane])
          lanes[4 &* (stripe &+ 1) &+ lane] = value
        }
        stale[lane] = .max
      }
      let last = lanes + 4 &* stripes
      var hasher = StableHasher(lanes: (last[0], last[1], last[2], last[3]), stripes: stripes)
      for index in (4 &* stripes)..<wordCount { hasher.combine(words[index]) }
      return hasher.finalize()
    }

    /// Writes `word` at `index` of `words`, and marks its lane stale from its stripe when it
    /// changed.
    @inline(__always)
    private func write(_ word: UInt64, at index: Int) {
      guard words[index] != word else { return }
      words[index] = word
      let lane = index & 3
      let stripe = index >> 2
      if stripe < stale[lane] { stale[lane] = stripe }
    }

    /// Writes again the words of each field that changed; false when they cannot be written
    /// in place (another number of fields, another key, or words of another length), or
    /// none were written yet (an object holds at least its head word: before the first
    /// `rebuild`, an object without fields would otherwise hash as no words at all).
    private func update(_ current: [TraceField]) -> Bool {
      guard wordCount > 0, current.count == fieldCount else { return false }
      let fields = fields
      // In place: an element read out of an array would be copied (its strings retained).
      return current.withUnsafeBufferPointer { current in
        for index in current.indices {
          guard sameBits(current[index].key, fields[index].key) else { return false }
          let value = current[index].value
          if fields[index].isScalar, Self.sameValueBits(value, fields[index].scalar) { continue }
          var written = ThreeWords()
          if case .int(let number) = value {
            // What most steps change, written without the walk over every kind (a call of
            // about 45 instructions): the words `combineWords` writes for it.
            written.words = (intHead, UInt64(bitPattern: number), 0)
            written.count = 2
          } else {
            combineChild(value, into: &written)
          }
          guard written.count == fields[index].count, written.count <= 3 else { return false }
          let start = fields[index].start
          write(written.words.0, at: start)
          if written.count > 1 { write(written.words.1, at: start + 1) }
          if written.count > 2 { write(written.words.2, at: start + 2) }
          fields[index].isScalar = !isContainer(value)
          fields[index].scalar = fields[index].isScalar ? value : .null
        }
        return true
      }
    }

    /// Writes every word again.
    private func rebuild(_ current: [TraceField]) {
      var sink = StableWordBuffer()
      swap(&sink.words, &spare)
      sink.words.removeAll(keepingCapacity: true)
      fields.deinitialize(count: fieldCount)
      fieldCount = 0
      if fieldCapacity < current.count {
        fields.deallocate()
        fields = .allocate(capacity: current.count)
        fieldCapacity = current.count
      }
      sink.combine(MerkleHash.objectHead(fieldCount: current.count))
      for field in current {
        combine(string: field.key, into: &sink)
        let start = sink.words.count
        combineChild(field.value, into: &sink)
        let isScalar = !isContainer(field.value)
        (fields + fieldCount).initialize(
          to: Field(
            key: field.key, scalar: isScalar ? field.value : .null, isScalar: isScalar,
            start: start, count: sink.words.count - start))
        fieldCount += 1
      }
      if wordCapacity < sink.words.count {
        words.deallocate()
        words = .allocate(capacity: sink.words.count)
        wordCapacity = sink.words.count
      }
      sink.words.withUnsafeBufferPointer { written in
        words.update(from: written.baseAddress!, count: written.count)
      }
      wordCount = sink.words.count
      swap(&sink.words, &spare)
      let laneCount = 4 * (wordCount / 4 + 1)
      if laneCapacity < laneCount {
        lanes.deallocate()
        lanes = .allocate(capacity: laneCount)
        laneCapacity = laneCount
        (lanes[0], lanes[1], lanes[2], lanes[3]) = StableHasher.seedLanes
      }
      stale.update(repeating: 0, count: 4)
    }

    /// Whether two values are the same bits: the same number or flag, or the same string or
    /// bytes (whose buffer the memo holds, so it cannot have changed in place). Equal values
    /// with other bits are written again, to the same words.
    @inline(__always)
    private static func sameValueBits(_ lhs: TraceValue, _ rhs: TraceValue) -> Bool {
      withUnsafeBytes(of: lhs) { left in
        withUnsafeBytes(of: rhs) { right in
          let size = MemoryLayout<TraceValue>.size
          var offset = 0
          while offset + 8 <= size {
            guard
              left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
          }
          while offset < size {
            guard left[offset] == right[offset] else { return false }
            offset += 1
          }
          return true
        }
      }
    }
  }

  /// Hashes an object field by field, taking the hash of a container field from a cache.
  ///
  /// ```swift
  /// var object = MerkleHash.ObjectHasher(fieldCount: 2)
  /// object.add(
  ///   key: MerkleHash.Key("rows"), head: MerkleHash.arrayHead(count: 200), hash: cachedRowsHash)
  /// object.add(key: MerkleHash.Key("n"), value: .int(1), hash: nil)
  /// object.finalize()  // the object's stableHash
  /// ```
  package struct ObjectHasher {
    private var hasher = StableHasher()

    package init(fieldCount: Int) {
      hasher.combine(MerkleHash.objectHead(fieldCount: fieldCount))
    }

    /// A field; `hash` is the value's hash when it is a container (`nil`: computed here).
    package mutating func add(key: Key, value: TraceValue, hash: UInt64?) {
      key.combine(into: &hasher)
      MerkleHash.combineChild(value, hash: hash ?? 0, known: hash != nil, into: &hasher)
    }

    /// A field whose value is a container with the head word `head` (see `MerkleHash.head`)
    /// and the stable hash `hash`, with the key's words worked out before: the words
    /// `add(key:value:hash:)` writes for such a value.
    @inline(__always)
    package mutating func add(key: Key, head: UInt64, hash: UInt64) {
      key.combine(into: &hasher)
      hasher.combine(head, hash)
    }

    /// A field whose value is a scalar with the words `words` (see `ScalarWords`), with the
    /// key's words worked out before: the words `add(key:value:hash:)` writes for the value.
    @inline(__always)
    package mutating func add(key: Key, scalar words: ScalarWords) {
      key.combine(into: &hasher)
      words.combine(into: &hasher)
    }

    package func finalize() -> UInt64 {
      hasher.finalize()
    }
  }

  /// The words an object's hash writes for a scalar field's value (`combineWords`), worked out
  /// once when they are at most three (a string of at most 16 bytes; every other scalar but
  /// bytes): a cache that keeps the field hashes its level again without reading its value.
  /// `isKnown` is false for a container or a longer scalar, which are written otherwise.
  ///
  /// ```swift
  /// let words = MerkleHash.ScalarWords(.int(3))  // isKnown; the words 0x02, 3
  /// var object = MerkleHash.ObjectHasher(fieldCount: 1)
  /// object.add(key: MerkleHash.Key("count"), scalar: words)
  /// object.finalize()  // TraceValue.object([TraceField("count", .int(3))]).stableHash
  /// ```
  package struct ScalarWords {
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// 1 to 3, or 0 when not known.
    private var count = 0

    package var isKnown: Bool { count > 0 }

    /// No words known (a container, or none worked out).
    package init() {}

    package init(_ value: TraceValue) {
      guard !MerkleHash.isContainer(value) else { return }
      var sink = ThreeWords()
      MerkleHash.combineWords(value, into: &sink)
      guard sink.count <= 3 else { return }
      words = sink.words
      count = sink.count
    }

    @inline(__always)
    fileprivate func combine(into hasher: inout StableHasher) {
      hasher.combine(words.0)
      if count > 1 { hasher.combine(words.1) }
      if count > 2 { hasher.combine(words.2) }
    }
  }

  /// The first three words written, without an allocation, and how many there were.
  fileprivate struct ThreeWords: StableWordSink {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0

    mutating func combine(_ word: UInt64) {
      switch count {
      case 0: words.0 = word
      case 1: words.1 = word
      case 2: words.2 = word
      default: break
      }
      count += 1
    }
  }

  // MARK: - Words

  /// Writes a child: inline words for scalars, head word and hash for containers.
  @inline(__always)
  static func combineChild<Sink: StableWordSink>(_ value: TraceValue, into hasher: inout Sink) {
    if isContainer(value) {
      hasher.combine(head(value))
      hasher.combine(hash(value))
    } else {
      combineWords(value, into: &hasher)
    }
  }

  @inline(__always)
  static func combineChild(
    _ value: TraceValue, hash: UInt64, known: Bool = true, into hasher: inout StableHasher
  ) {
    if isContainer(value) {
      hasher.combine(head(value), known ? hash : Self.hash(value))
    } else {
      combineWords(value, into: &hasher)
    }
  }

  /// The head word of an array of `count` elements (see `head`).
  @inline(__always)
  package static func arrayHead(count: Int) -> UInt64 { 0x07 | UInt64(count) << 8 }

  /// The head word of an object of `fieldCount` fields (see `head`).
  @inline(__always)
  package static func objectHead(fieldCount: Int) -> UInt64 { 0x08 | UInt64(fieldCount) << 8 }

  /// A container's head word (its kind and count), written before its hash; 0 for a scalar.
  @inline(__always)
  package static func head(_ value: TraceValue) -> UInt64 {
    switch value {
    case .array(let elements): return arrayHead(count: elements.count)
    case .object(let fields): return objectHead(fieldCount: fields.count)
    case .enumCase(_, let fields): return 0x09 | UInt64(fields.count) << 8
    case .reflected: return 0x0A
    default: return 0
    }
  }

  /// The word written before an integer's bits.
  @inline(__always)
  static var intHead: UInt64 { 0x02 }

  /// The value's own words (a large array's are its run hashes: see `hash`).
  static func combineWords<Sink: StableWordSink>(_ value: TraceValue, into hasher: inout Sink) {
    switch value {
    case .null:
      hasher.combine(0x00)
    case .bool(let value):
      hasher.combine(value ? 0x101 : 0x001)
    case .int(let value):
      hasher.combine(intHead)
      hasher.combine(UInt64(bitPattern: value))
    case .uint(let value):
      hasher.combine(0x03)
      hasher.combine(value)
    case .double(let value):
      hasher.combine(0x04)
      hasher.combine(value.bitPattern)
    case .string(let value):
      combine(string: value, into: &hasher)
    case .bytes(let value):
      hasher.combine(0x06 | UInt64(value.count) << 8)
      value.withUnsafeBytes { hasher.combinePacked($0) }
    case .array:
      // Only reached for a top-level array through `hash`, which handles arrays itself.
      hasher.combine(hash(value))
    case .object(let fields):
      hasher.combine(MerkleHash.objectHead(fieldCount: fields.count))
      combine(fields: fields, into: &hasher)
    case .enumCase(let name, let fields):
      hasher.combine(0x09 | UInt64(fields.count) << 8)
      combine(string: name, into: &hasher)
      combine(fields: fields, into: &hasher)
    case .reflected(let typeName, let value):
      hasher.combine(0x0A)
      combine(string: typeName, into: &hasher)
      combineChild(value, into: &hasher)
    }
  }

  private static func combine<Sink: StableWordSink>(
    fields: [TraceField], into hasher: inout Sink
  ) {
    // Read in place: a `for field in fields` copied each field (a retain and release of its
    // key and value), most of hashing a small object.
    fields.withUnsafeBufferPointer { fields in
      for index in fields.indices {
        combine(string: fields[index].key, into: &hasher)
        combineChild(fields[index].value, into: &hasher)
      }
    }
  }

  @inline(__always)
  static func combine<Sink: StableWordSink>(string: String, into hasher: inout Sink) {
    // Native and small strings lend their UTF-8 without a copy of the string.
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
      combine(utf8: UnsafeRawBufferPointer(utf8), into: &hasher)
    }
    guard done == nil else { return }
    var string = string
    string.withUTF8 { utf8 in combine(utf8: UnsafeRawBufferPointer(utf8), into: &hasher) }
  }

  /// A string's words, from its UTF-8.
  @inline(__always)
  static func combine<Sink: StableWordSink>(
    utf8: UnsafeRawBufferPointer, into hasher: inout Sink
  ) {
    hasher.combine(0x05 | UInt64(utf8.count) << 8)
    hasher.combinePacked(utf8)
  }
}

import Foundation

/// One JSON line of a payload chunk: a step's action, its state changes and its dependency
/// reads. A line begins with `{"step":N,` when its step is not the previous line's + 1 (a
/// part's first line, the first line after a gap), else directly with `{"action":`: the
/// step number, different on every line, broke LZ4's matches between otherwise equal lines.
/// A reader finds a line's step from the line's start alone, without parsing the rest.
///
/// ```json
/// {"step":7,"action":{"$case":"increment"},"changes":[…],"deps":[{"key":"uuid","value":"…"}]}
/// {"action":{"$case":"increment"},"changes":[…]}
/// ```
package struct StepLine: Sendable {
  /// The step the line names, or the one its reader gave (`init(parsing:step:)`); nil when
  /// neither did.
  var step: Int?
  var action: TraceValue
  var changes: [TraceChange]
  var dependencies: [DependencyRead]

  struct Failure: Error, Sendable {
    var reason: String
  }

  /// Appends the line, newline included. `encoder` caches the text of repeated paths.
  /// `carriesStep` is false when the line follows the line of step `record.step - 1` in the
  /// same part: the line then leaves its step out.
  static func write(
    _ record: StepRecord, into buffer: inout [UInt8], encoder: inout Encoder,
    carriesStep: Bool = true
  ) {
    if carriesStep {
      append("{\"step\":", into: &buffer)
      appendInt(record.step, into: &buffer)
      append(",\"action\":", into: &buffer)
    } else {
      append("{\"action\":", into: &buffer)
    }
    encoder.writeAction(record.action, into: &buffer)
    append(",\"changes\":[", into: &buffer)
    var first = true
    for change in record.changes {
      if !first { buffer.append(UInt8(ascii: ",")) }
      first = false
      encoder.writeChange(change, into: &buffer)
    }
    buffer.append(UInt8(ascii: "]"))
    if !record.dependencies.isEmpty {
      append(",\"deps\":[", into: &buffer)
      first = true
      for read in record.dependencies {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        append("{\"key\":", into: &buffer)
        TraceValue.string(read.key).writeJSON(into: &buffer)
        append(",\"value\":", into: &buffer)
        read.value.writeJSON(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
      buffer.append(UInt8(ascii: "]"))
    }
    append("}\n", into: &buffer)
  }

  /// Writes changes in exactly the bytes `change.jsonValue.writeJSON(into:)` gives
  /// (`{"op":…,"path":…,"value":…}`), without building the intermediate value, and remembers
  /// the JSON text of recent paths: a recording changes the same few paths again and again.
  ///
  /// The live protocol's step messages (`StepFrameWriter`) write their changes with it too.
  package struct Encoder {
    /// A path's texts: its `description` (a `changed_paths` entry), that text as a JSON
    /// string (a change's `"path"`), and the whole opening of a `set` change of it, up to its
    /// value (`{"op":"set","path":…,"value":`): one copy instead of three, each of which cost
    /// about 100 instructions in `Array.append(contentsOf:)` for a few bytes. A class: the
    /// caches copy an entry with one retain.
    private final class PathTexts {
      let key: PathKey
      let description: String
      let json: [UInt8]
      let setOpening: [UInt8]

      init(key: PathKey, description: String, json: [UInt8]) {
        self.key = key
        self.description = description
        self.json = json
        var setOpening: [UInt8] = []
        setOpening.reserveCapacity(json.count + 28)
        StepLine.append("{\"op\":\"set\",\"path\":", into: &setOpening)
        setOpening.append(contentsOf: json)
        StepLine.append(",\"value\":", into: &setOpening)
        self.setOpening = setOpening
      }
    }

    /// The texts of paths met, in the slot their key's hash picks (a path that lands on a
    /// taken slot replaces its texts): a few paths change again and again, and one hash and
    /// one comparison cost less than a dictionary's look-up, which also hashed the whole path
    /// through SipHash (about 1,200 instructions). The slots bound the memory used.
    private var paths = [PathTexts?](repeating: nil, count: pathSlots)
    private static let pathSlots = 1_024
    /// The texts of the paths looked up last, by their components' storage: a step's changed
    /// paths and its changes' paths are the same arrays (the diff makes each path once), so a
    /// change's path written after the step's changed paths were named is found by its
    /// address, without hashing it again (about 1,000 instructions a path). The entry holds
    /// the array, so no other array can take its address while it is here; and an array held
    /// twice is copied before it is changed, so the storage holds the same components.
    private var recent = [(components: [TracePath.Component], texts: PathTexts)?](
      repeating: nil, count: recentSlots)
    private static let recentSlots = 64
    /// The texts of paths met lately, by their components' bits: the next step's path to the
    /// same field is a new array, but of the same component values (its keys are the same
    /// strings: a short one is its bits, a long one the same storage), so its bits find it
    /// without the path's key, which hashes and compares every string's bytes (about 800
    /// instructions). Same bits are the same values: the entry holds its components, so the
    /// storage its bits point at is theirs and cannot change. Other bits (a new string of
    /// the same text, or bytes an enum leaves unset) only miss.
    private var byBits = [(components: [TracePath.Component], texts: PathTexts)?](
      repeating: nil, count: bitsSlots)
    private static let bitsSlots = 256
    /// The JSON of the actions written last, by their fields' storage: the recorder's first
    /// stage hands a repeated action as the value it made the first time (`EncodedActions`),
    /// whose fields are the same array, so its JSON is copied instead of written again. As
    /// with `recent`, the entry holds the action, so the storage cannot be another's or
    /// change; the case's name is compared by its bytes.
    private var actions = [(action: TraceValue, json: [UInt8])?](
      repeating: nil, count: actionSlots)
    /// Four times the actions an app repeats: the slot is picked by the storage's address, and
    /// with 64 slots the composed app's ~60 repeated actions collided in 39 % of its steps
    /// (each then written again, about 3,000 instructions).
    private static let actionSlots = 256
    /// The JSON of the last two cases without fields (`.plus`, `.minus`) written, by their
    /// names: every such action has the same (empty) fields array, so `actions`, which
    /// goes by the fields' storage, cannot tell them apart, and writing one again (its name
    /// scanned for escapes) cost about 450 instructions.
    private var recentCases = LastTwo<[UInt8]>(empty: [])
    /// Longer actions are written each time: keeping them would hold their memory.
    private static let actionJSONLimit = 1_024
    /// The JSON text of path lists written, by their bytes (`StringListKey`): lists of
    /// canonically equal but different strings are different texts.
    private var pathLists: [StringListKey: [UInt8]] = [:]
    /// Bounds the cache of path lists: a recording of ever-new paths (ids) must not grow
    /// memory.
    private static let cacheLimit = 4_096

    package init() {}

    package mutating func writeChange(_ change: TraceChange, into buffer: inout [UInt8]) {
      switch change {
      case .set(let path, let value):
        if let texts = texts(of: path) {
          buffer.append(contentsOf: texts.setOpening)
        } else {
          append("{\"op\":\"set\",\"path\":", into: &buffer)
          TraceValue.string(path.description).writeJSON(into: &buffer)
          append(",\"value\":", into: &buffer)
        }
        value.writeJSON(into: &buffer)
      case .remove(let path):
        append("{\"op\":\"remove\",\"path\":", into: &buffer)
        writePath(path, into: &buffer)
      case .insert(let path, let value):
        append("{\"op\":\"insert\",\"path\":", into: &buffer)
        writePath(path, into: &buffer)
        append(",\"value\":", into: &buffer)
        value.writeJSON(into: &buffer)
      }
      buffer.append(UInt8(ascii: "}"))
    }

    private mutating func writePath(_ path: TracePath, into buffer: inout [UInt8]) {
      if let texts = texts(of: path) {
        buffer.append(contentsOf: texts.json)
      } else {
        TraceValue.string(path.description).writeJSON(into: &buffer)
      }
    }

    /// Writes `action.writeJSON(into:)`'s bytes, from the cache when the action is one written
    /// lately (see `actions`).
    mutating func writeAction(_ action: TraceValue, into buffer: inout [UInt8]) {
      let name: String?
      let fields: [TraceField]
      switch action {
      case .object(let objectFields): (name, fields) = (nil, objectFields)
      case .enumCase(let caseName, let caseFields): (name, fields) = (caseName, caseFields)
      default:
        action.writeJSON(into: &buffer)
        return
      }
      guard !fields.isEmpty else {
        if let name {
          writeCase(named: name, action, into: &buffer)
        } else {
          action.writeJSON(into: &buffer)
        }
        return
      }
      let address = fields.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
      let slot = Int(truncatingIfNeeded: address >> 4 ^ address >> 10) & (Self.actionSlots - 1)
      if let entry = actions[slot] {
        switch entry.action {
        case .object(let cached) where name == nil:
          if cached.withUnsafeBufferPointer({ UInt(bitPattern: $0.baseAddress) }) == address {
            buffer.append(contentsOf: entry.json)
            return
          }
        case .enumCase(let cachedName, let cached):
          if let name,
            cached.withUnsafeBufferPointer({ UInt(bitPattern: $0.baseAddress) }) == address,
            ByteHash.sameBytes(cachedName, name)
          {
            buffer.append(contentsOf: entry.json)
            return
          }
        default:
          break
        }
      }
      let start = buffer.count
      action.writeJSON(into: &buffer)
      if buffer.count - start <= Self.actionJSONLimit {
        actions[slot] = (action, Array(buffer[start...]))
      }
    }

    /// Writes `action`, a case `name` without fields, from `recentCases` when it is one of them.
    private mutating func writeCase(
      named name: String, _ action: TraceValue, into buffer: inout [UInt8]
    ) {
      if let entry = recentCases.entry(of: name, byBytes: true) {
        buffer.append(contentsOf: recentCases[entry])
        return
      }
      let start = buffer.count
      action.writeJSON(into: &buffer)
      if buffer.count - start <= Self.actionJSONLimit {
        recentCases.keep(name, Array(buffer[start...]))
      }
    }

    /// The `changed_paths` texts of a step's changed paths (`TracePath.changedPathTexts`),
    /// each found in the cache the lines' paths are written from.
    package mutating func changedPathTexts(_ paths: [TracePath]) -> [String] {
      TracePath.changedPathTexts(paths) { texts(of: $0)?.description ?? $0.description }
    }

    /// The texts of `path`, made when it was not met before; nil for a path without a key
    /// (`PathKey`), whose texts are made each time.
    private mutating func texts(of path: TracePath) -> PathTexts? {
      let address = path.components.withUnsafeBufferPointer {
        UInt(bitPattern: $0.baseAddress)
      }
      let recentSlot =
        Int(truncatingIfNeeded: address >> 4 ^ address >> 10) & (Self.recentSlots - 1)
      if let entry = recent[recentSlot],
        entry.components.withUnsafeBufferPointer({ UInt(bitPattern: $0.baseAddress) }) == address
      {
        return entry.texts
      }
      let bitsSlot = Int(truncatingIfNeeded: Self.bitsHash(path.components)) & (Self.bitsSlots - 1)
      if let entry = byBits[bitsSlot], Self.sameBits(entry.components, path.components) {
        recent[recentSlot] = (path.components, entry.texts)
        return entry.texts
      }
      guard let key = PathKey(path) else { return nil }
      let slot = key.slot(in: Self.pathSlots)
      let texts: PathTexts
      if let entry = paths[slot], entry.key == key {
        texts = entry
      } else {
        let description = path.description
        // Room for the quotes and a few escapes (a key's `"` in `[id: "…"]`): grown from
        // empty, the text was copied twice on the way (about 400 instructions a new path).
        var json: [UInt8] = []
        json.reserveCapacity(description.utf8.count + 8)
        TraceValue.string(description).writeJSON(into: &json)
        texts = PathTexts(key: key, description: description, json: json)
        paths[slot] = texts
      }
      recent[recentSlot] = (path.components, texts)
      byBits[bitsSlot] = (path.components, texts)
      return texts
    }

    /// The first `MemoryLayout<Component>.size` bytes of each component (not the padding
    /// between them), as words and bytes.
    private static func withComponentBits(
      _ components: [TracePath.Component], _ body: (UnsafeRawPointer) -> Void
    ) {
      components.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        for index in 0..<components.count {
          body(base + index * MemoryLayout<TracePath.Component>.stride)
        }
      }
    }

    private static func bitsHash(_ components: [TracePath.Component]) -> UInt64 {
      var mixer = ByteHash.Mixer()
      mixer.mix(UInt64(components.count))
      withComponentBits(components) { bits in
        var offset = 0
        let size = MemoryLayout<TracePath.Component>.size
        while offset + 8 <= size {
          mixer.mix(bits.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          offset += 8
        }
        while offset < size {
          mixer.mix(UInt64(bits.load(fromByteOffset: offset, as: UInt8.self)))
          offset += 1
        }
      }
      return mixer.finish()
    }

    private static func sameBits(_ a: [TracePath.Component], _ b: [TracePath.Component]) -> Bool {
      guard a.count == b.count else { return false }
      return a.withUnsafeBytes { left in
        b.withUnsafeBytes { right in
          guard let left = left.baseAddress, let right = right.baseAddress else { return true }
          let stride = MemoryLayout<TracePath.Component>.stride
          let size = MemoryLayout<TracePath.Component>.size
          for index in 0..<a.count
          where memcmp(left + index * stride, right + index * stride, size) != 0 {
            return false
          }
          return true
        }
      }
    }

    /// The JSON array of strings stored in the `changed_paths` column, kept by the strings'
    /// bytes for the next time (a live session's step messages name the same sets again).
    package mutating func writeStringArray(_ strings: [String], into buffer: inout [UInt8]) {
      let key = StringListKey(strings)
      if let cached = pathLists[key] {
        buffer.append(contentsOf: cached)
        return
      }
      let start = buffer.count
      writeChangedPathSet(strings, namedFrom: [], into: &buffer)
      if pathLists.count >= Self.cacheLimit { pathLists.removeAll(keepingCapacity: true) }
      pathLists[key] = Array(buffer[start...])
    }

    /// The JSON array of strings stored in the `changed_paths` column, kept nowhere (a writer
    /// stores each set once). A string's JSON is copied from the texts of the first of the
    /// remaining `paths` whose description is the string by its bits, and written otherwise:
    /// when `strings` are `changedPathTexts(paths)`, each comes from the cache its path was
    /// just named from, and a new set of new paths (a toggle of one of 10,000 rows) does not
    /// scan its texts for escapes again (about 1,600 instructions a path).
    package mutating func writeChangedPathSet(
      _ strings: [String], namedFrom paths: [TracePath], into buffer: inout [UInt8]
    ) {
      buffer.append(UInt8(ascii: "["))
      var next = 0
      for index in strings.indices {
        if index > 0 { buffer.append(UInt8(ascii: ",")) }
        var written = false
        while !written, next < paths.count {
          if let texts = texts(of: paths[next]),
            TraceValues.sameBits(texts.description, strings[index])
          {
            buffer.append(contentsOf: texts.json)
            written = true
          }
          next += 1
        }
        if !written { TraceValue.string(strings[index]).writeJSON(into: &buffer) }
      }
      buffer.append(UInt8(ascii: "]"))
    }
  }

  /// Reads a whole line (without its newline). `step` is the line's step as its chunk gives
  /// it (`DecodedChunk`); a `step` member the line holds must agree with it.
  init(parsing line: UnsafeRawBufferPointer, step expected: Int? = nil) throws(Failure) {
    let value: TraceValue
    do {
      value = try TraceValue(json: Array(line))
    } catch {
      throw Failure(reason: error.description)
    }
    guard case .object(let fields) = value else { throw Failure(reason: "line is not an object") }
    var step: Int?
    var action: TraceValue?
    var changes: [TraceChange]?
    var dependencies: [DependencyRead] = []
    var seen: [String] = []
    for field in fields {
      // A reader that took the first of two and one that took the last would tell two
      // stories: no reader takes either.
      if Self.members.contains(field.key) {
        guard !seen.contains(field.key) else {
          throw Failure(reason: "'\(field.key)' appears twice in the line")
        }
        seen.append(field.key)
      }
      switch field.key {
      case "step":
        guard case .int(let number) = field.value, let number = Int(exactly: number) else {
          throw Failure(reason: "'step' is not an integer")
        }
        step = number
      case "action":
        action = field.value
      case "changes":
        guard case .array(let elements) = field.value else {
          throw Failure(reason: "'changes' is not an array")
        }
        var decoded: [TraceChange] = []
        decoded.reserveCapacity(elements.count)
        for element in elements { decoded.append(try Self.change(element)) }
        changes = decoded
      case "deps":
        dependencies = try Self.dependencies(field.value)
      default:
        // Later minor versions may add fields; a reader of this version skips them.
        continue
      }
    }
    guard let action, let changes else {
      throw Failure(reason: "line lacks 'action' or 'changes'")
    }
    if let step, let expected, step != expected {
      throw Failure(reason: "its 'step' member is \(step), but the line is step \(expected)")
    }
    self.step = step ?? expected
    self.action = action
    self.changes = changes
    self.dependencies = dependencies
  }

  /// The members a line's reader reads; a line holds each at most once.
  static let members = ["step", "action", "changes", "deps"]

  /// Only the changes of a line, without building its action: replaying a trace reads
  /// every line for its changes alone. Falls back to the full parse for a line written in
  /// another member order, or with members after its changes other than `deps`.
  static func changes(parsing line: UnsafeRawBufferPointer, paths: PathCache? = nil)
    throws(Failure) -> [TraceChange]
  {
    guard let paths else { return try generalChanges(line) }
    var changes: [TraceChange] = []
    try self.changes(parsing: line, paths: paths, into: &changes)
    return changes
  }

  /// `changes(parsing:paths:)` into `changes`, replacing what it held and keeping its
  /// capacity: a replay parses a line per step, and reusing one array saves an allocation
  /// and a free at each.
  ///
  /// `stepEnd` is the byte before the line's `"action"` key (`DecodedChunk.Line.stepEnd`),
  /// when the caller knows it: the line need not be peeked again. `paths` is not optional:
  /// binding an optional cache retained and released it at every line.
  static func changes(
    parsing line: UnsafeRawBufferPointer, paths: PathCache, stepEnd: Int? = nil,
    into changes: inout [TraceChange]
  ) throws(Failure) {
    // `removeAll(keepingCapacity:)` goes through the general `replaceSubrange`; a line
    // changes a path or two, and popping them costs a fraction of that.
    while changes.popLast() != nil {}
    // The direct reader finds the end of the array itself: no second scan over it.
    if let start = paths.changesStart(line, stepEnd: stepEnd),
      try directChanges(line, in: start..<line.count, paths: paths, into: &changes)
    {
      return
    }
    changes = try generalChanges(line)
  }

  /// The changes of a line through the general parser: any member order and layout.
  private static func generalChanges(_ line: UnsafeRawBufferPointer)
    throws(Failure) -> [TraceChange]
  {
    guard let range = changesRange(line), line[range.lowerBound] == UInt8(ascii: "[") else {
      return try StepLine(parsing: line).changes
    }
    let value: TraceValue
    do {
      value = try TraceValue(json: Array(UnsafeRawBufferPointer(rebasing: line[range])))
    } catch {
      throw Failure(reason: error.description)
    }
    guard case .array(let elements) = value else {
      throw Failure(reason: "'changes' is not an array")
    }
    var changes: [TraceChange] = []
    changes.reserveCapacity(elements.count)
    for element in elements { changes.append(try change(element)) }
    // Read, and then the line must end as the writer ends it: a line that says more after
    // its changes is the whole-line parse's to read.
    guard endsAfterChanges(line, at: range.upperBound) else {
      return try StepLine(parsing: line).changes
    }
    return changes
  }

  /// Only the action of a line, without building its changes (`log` shows the action alone).
  /// Falls back to the full parse for a line written in another member order, or with
  /// members after its changes other than `deps`.
  static func action(parsing line: UnsafeRawBufferPointer) throws(Failure) -> TraceValue {
    guard let range = actionRange(line) else { return try StepLine(parsing: line).action }
    let action: TraceValue
    do {
      action = try TraceValue(json: Array(UnsafeRawBufferPointer(rebasing: line[range])))
    } catch {
      throw Failure(reason: error.description)
    }
    // Read, and then the changes must follow and end the line as the writer writes them.
    guard let changesStart = changesStart(line, afterAction: range),
      let changesEnd = skipChanges(line, from: changesStart),
      endsAfterChanges(line, at: changesEnd)
    else { return try StepLine(parsing: line).action }
    return action
  }

  /// The action and dependency reads of a line, found in one pass that builds neither the
  /// action's tree nor the changes: typed replay decodes each distinct action once, by its
  /// bytes. A line in another member order is parsed whole, its action written back as JSON.
  struct ReplayParts {
    /// The action's JSON: a range of the line, or the bytes of a whole-line parse's action.
    var action: Either
    var dependencies: [DependencyRead]

    enum Either {
      case range(Range<Int>)
      case bytes([UInt8])
    }
  }

  static func replayParts(parsing line: UnsafeRawBufferPointer, paths: PathCache? = nil)
    throws(Failure) -> ReplayParts
  {
    if let range = paths?.actionRange(line) ?? actionRange(line),
      let changesStart = changesStart(line, afterAction: range),
      let changesEnd = skipChanges(line, from: changesStart)
    {
      if changesEnd == line.count - 1, line[changesEnd] == UInt8(ascii: "}") {
        return ReplayParts(action: .range(range), dependencies: [])
      }
      if let depsStart = expect(",\"deps\":", in: line, at: changesEnd),
        let depsEnd = skipValue(line, from: depsStart), depsEnd == line.count - 1,
        line[depsEnd] == UInt8(ascii: "}")
      {
        let value: TraceValue
        do {
          let text = UnsafeRawBufferPointer(rebasing: line[depsStart..<depsEnd])
          value = try TraceValue(json: Array(text))
        } catch {
          throw Failure(reason: error.description)
        }
        return ReplayParts(action: .range(range), dependencies: try dependencies(value))
      }
    }
    let whole = try StepLine(parsing: line)
    return ReplayParts(
      action: .bytes(Array(whole.action.jsonString.utf8)), dependencies: whole.dependencies)
  }

  /// The reads of a `deps` array.
  private static func dependencies(_ value: TraceValue) throws(Failure) -> [DependencyRead] {
    guard case .array(let elements) = value else {
      throw Failure(reason: "'deps' is not an array")
    }
    var dependencies: [DependencyRead] = []
    for element in elements {
      guard case .object(let pair) = element, pair.count == 2, pair[0].key == "key",
        case .string(let key) = pair[0].value, pair[1].key == "value"
      else { throw Failure(reason: "a dependency is not {\"key\":…,\"value\":…}") }
      dependencies.append(DependencyRead(key: key, value: pair[1].value))
    }
    return dependencies
  }

  /// The byte range of the action in `{"step":N,"action":…,…}` or `{"action":…,…}`.
  private static func actionRange(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
    guard let start = actionStart(line), let end = skipValue(line, from: start) else {
      return nil
    }
    return start..<end
  }

  /// The parsed paths of recent changes by their JSON text: a trace changes the same few
  /// paths again and again, and parsing a path (`todos[id: 3].title`) costs more than the
  /// rest of a change. Bounded, so a trace of ever-new paths does not grow memory.
  final class PathCache {
    // Each cache belongs to one thread (a reader's, or `StepPayload`'s caller's) and is asked
    // at every line: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var entries: [(text: [UInt8], path: TracePath)] = []
    @exclusivity(unchecked) private var next = 0
    static let limit = 32

    /// The bytes of the last change head read (`{"op":"set","path":"count","value":`, from
    /// the change's brace to its value), with its op and path: a trace's steps mostly change
    /// the path the step before changed, and a line whose change starts with these bytes is
    /// read by one comparison instead of three and a look in `entries`. Exact: those steps
    /// read only these bytes, so the same bytes give the same op and path. A buffer, not an
    /// array: an array held by the cache is retained and released at every look.
    private let headBytes = UnsafeMutableRawPointer.allocate(
      byteCount: PathCache.headLimit, alignment: 1)
    @exclusivity(unchecked) private var headCount = 0
    @exclusivity(unchecked) private var headOp: UInt8 = 0
    @exclusivity(unchecked) private var headPath = TracePath([])
    /// Longer heads (long paths) are read the usual way.
    static let headLimit = 96
    /// Counts the heads kept: while it holds, the kept head (its op and path) is the same.
    @exclusivity(unchecked) private(set) var keptHeadNumber = 0
    /// Whether the last line `directChanges` read holds exactly one change, a `set` of a
    /// value that is not an object (nor a marker around one), whose op and path are the kept
    /// head's (read from it, or kept from it): a reader that checked such a line knows the next
    /// one with the same `keptHeadNumber` sets the same path to a value of the same kind.
    @exclusivity(unchecked) var lastLineIsKeptSet = false

    init() {
      startCounts.initialize(repeating: 0, count: Self.startSlots)
    }

    deinit {
      headBytes.deallocate()
      actionUsed.deallocate()
      startBytes.deallocate()
      startCounts.deallocate()
    }

    /// The op and path of the change whose head starts at `index`, when its bytes (before
    /// `end`) are the last kept head's; and where its value starts.
    @inline(__always)
    func head(
      at index: Int, in line: UnsafeRawBufferPointer, before end: Int
    ) -> (op: UInt8, path: TracePath, value: Int)? {
      let count = headCount
      guard count > 0, index + count <= end, let base = line.baseAddress,
        memcmp(base + index, headBytes, count) == 0
      else { return nil }
      return (headOp, headPath, index + count)
    }

    /// Keeps the head `line[range]` (a set's or an insert's, through `"value":`); false when
    /// it is too long to keep (the kept head stays as it was).
    @discardableResult
    func keepHead(
      _ range: Range<Int>, in line: UnsafeRawBufferPointer, op: UInt8, path: TracePath
    ) -> Bool {
      guard range.count <= Self.headLimit, let base = line.baseAddress else { return false }
      headBytes.copyMemory(from: base + range.lowerBound, byteCount: range.count)
      headCount = range.count
      headOp = op
      headPath = path
      keptHeadNumber &+= 1
      return true
    }

    /// The actions of recent lines: most lines repeat an action seen just before (a counter's
    /// `plus`, `plus`, `minus`), whose bytes are recognised by one comparison instead of
    /// scanning the value again. Sixteen: a composed app's taps cycle through a dozen actions
    /// or so (`Showcase`'s script: eleven fixed ones and three that change), and a kept action
    /// that is not the line's costs a length check, not a comparison.
    ///
    /// A new action replaces one not used since the hand (`nextAction`) last passed it
    /// (`actionUsed`, the clock algorithm): replacing each in turn dropped a cycle's fixed
    /// actions while its changing ones came in, and on `Showcase`'s script 41 % of lines
    /// missed, against 19 % now.
    @exclusivity(unchecked) private var recentActions: [[UInt8]] = []
    /// A mark for each of `recentActions`: a buffer, since marking an array's element checks
    /// it for uniqueness and retains `recentActions` around that, at every line.
    private let actionUsed = UnsafeMutablePointer<Bool>.allocate(capacity: PathCache.actionCount)
    @exclusivity(unchecked) private var nextAction = 0
    static let actionCount = 16
    /// Longer actions are scanned each time: keeping them would copy them per line.
    static let actionLimit = 256

    /// The bytes of recent lines from the `"action"` key through the `"changes"` key
    /// (`"action":{"$case":"plus"},"changes":`), in `startSlots` places of `startLimit` bytes,
    /// with their counts (0: none): most lines begin as one of the few lines before them (a
    /// counter's `plus`, `plus`, `minus`), and such a line's changes start where that line's
    /// did, found by one comparison instead of reading the action and the key (about 100
    /// instructions a line). Exact: finding the start reads only these bytes (the action's
    /// value ends at its last byte or at the comma after it, and the key follows), so the same
    /// bytes give the same start.
    private let startBytes = UnsafeMutableRawPointer.allocate(
      byteCount: PathCache.startSlots * PathCache.startLimit, alignment: 8)
    private let startCounts = UnsafeMutablePointer<Int>.allocate(capacity: PathCache.startSlots)
    /// The place the next start is kept in (each in turn).
    @exclusivity(unchecked) private var nextStart = 0
    static let startSlots = 4
    static let startLimit = 128

    /// `StepLine.changesStart`, with the action found as `actionRange` finds it. `stepEnd`,
    /// when given, is the byte before the `"action"` key: then a line that begins there as a
    /// recent line did is answered from it (`keptChangesStart`).
    func changesStart(_ line: UnsafeRawBufferPointer, stepEnd: Int? = nil) -> Int? {
      if let stepEnd, let start = keptChangesStart(line, stepEnd: stepEnd) { return start }
      guard
        let start = actionRange(line, stepEnd: stepEnd).flatMap({
          StepLine.changesStart(line, afterAction: $0)
        })
      else { return nil }
      if let stepEnd { keepStart(line, from: stepEnd + 1, to: start) }
      return start
    }

    /// Where the changes start in `line`, when its bytes from `stepEnd + 1` begin with a kept
    /// start; nil when they begin with none.
    @inline(__always)
    func keptChangesStart(_ line: UnsafeRawBufferPointer, stepEnd: Int) -> Int? {
      guard stepEnd >= 0, let base = line.baseAddress else { return nil }
      let from = stepEnd + 1
      for slot in 0..<Self.startSlots {
        let count = startCounts[slot]
        guard count > 0, from + count <= line.count,
          memcmp(base + from, startBytes + slot * Self.startLimit, count) == 0
        else { continue }
        return from + count
      }
      return nil
    }

    /// Keeps `line[from..<end]`, the bytes from a line's `"action"` key through its
    /// `"changes"` key, in place of the start kept longest ago (unless it is longer than
    /// `startLimit`).
    private func keepStart(_ line: UnsafeRawBufferPointer, from: Int, to end: Int) {
      let count = end - from
      guard from >= 0, count > 0, count <= Self.startLimit, let base = line.baseAddress else {
        return
      }
      (startBytes + nextStart * Self.startLimit).copyMemory(from: base + from, byteCount: count)
      startCounts[nextStart] = count
      nextStart = (nextStart + 1) % Self.startSlots
    }

    /// `StepLine.actionRange`, with the action's end found by comparing with recent lines'
    /// actions. Exact: a JSON value that begins with a whole other value followed by a comma
    /// is that value (values are well-bracketed, a scalar ends at the comma), so the scan
    /// would have read the same bytes.
    ///
    /// `stepEnd`, when given, is the byte before the `"action"` key, as `peekStepEnd` found it.
    func actionRange(_ line: UnsafeRawBufferPointer, stepEnd: Int? = nil) -> Range<Int>? {
      let start =
        if let stepEnd {
          StepLine.expect("\"action\":", in: line, at: stepEnd + 1)
        } else {
          StepLine.actionStart(line)
        }
      guard let afterActionKey = start, let base = line.baseAddress else { return nil }
      for (position, action) in recentActions.enumerated() {
        let end = afterActionKey + action.count
        guard end < line.count, line[end] == UInt8(ascii: ",") else { continue }
        let same = action.withUnsafeBytes { stored in
          memcmp(base + afterActionKey, stored.baseAddress!, action.count) == 0
        }
        if same {
          actionUsed[position] = true
          return afterActionKey..<end
        }
      }
      guard let afterAction = StepLine.skipValue(line, from: afterActionKey) else { return nil }
      if afterAction - afterActionKey <= Self.actionLimit {
        let action = Array(UnsafeRawBufferPointer(rebasing: line[afterActionKey..<afterAction]))
        if recentActions.count < Self.actionCount {
          actionUsed[recentActions.count] = false
          recentActions.append(action)
        } else {
          // The first kept action not used since the hand last passed it is replaced; the
          // hand clears the marks it passes (at most one round).
          while actionUsed[nextAction] {
            actionUsed[nextAction] = false
            nextAction = (nextAction + 1) % Self.actionCount
          }
          recentActions[nextAction] = action
          nextAction = (nextAction + 1) % Self.actionCount
        }
      }
      return afterActionKey..<afterAction
    }

    /// The cached path whose JSON text the line holds at `start`, and where its text ends:
    /// found without scanning for the string's end. Exact: a cached text is a whole JSON
    /// string, whose first unescaped quote is its last byte, so a string in the line that
    /// begins with those bytes ends where they end.
    func path(
      startingAt start: Int, in line: UnsafeRawBufferPointer, before end: Int
    ) -> (path: TracePath, end: Int)? {
      guard let base = line.baseAddress else { return nil }
      for entry in entries {
        let after = start + entry.text.count
        // Two byte comparisons first: a trace of ever-new paths misses at every entry.
        guard after < end, line[after - 1] == UInt8(ascii: "\""),
          line[start + 1] == entry.text[1]
        else { continue }
        let same = entry.text.withUnsafeBytes { stored in
          memcmp(base + start, stored.baseAddress!, stored.count) == 0
        }
        if same { return (entry.path, after) }
      }
      return nil
    }

    func store(_ text: UnsafeRawBufferPointer, _ path: TracePath) {
      if entries.count < Self.limit {
        entries.append((Array(text), path))
      } else {
        entries[next] = (Array(text), path)
        next = (next + 1) % Self.limit
      }
    }
  }

  /// Reads the changes as this writer writes them (`{"op":"set","path":…,"value":…}`, no
  /// whitespace) straight from the bytes: no intermediate `TraceValue` object per change, the
  /// path from the cache, an integer value without the general parser. False when the bytes
  /// are laid out any other way; the general parse then reads them (and words any error).
  private static func directChanges(
    _ line: UnsafeRawBufferPointer, in range: Range<Int>, paths: PathCache,
    into changes: inout [TraceChange]
  ) throws(Failure) -> Bool {
    var index = range.lowerBound
    let end = range.upperBound
    paths.lastLineIsKeptSet = false
    // The changes read from, or kept as, the kept head; whether the last value read is an
    // object or a marker.
    var keptHeads = 0
    var container = false
    guard index < end, line[index] == UInt8(ascii: "[") else { return false }
    index += 1
    if index < end, line[index] == UInt8(ascii: "]") {
      return endsAfterChanges(line, at: index + 1)
    }
    // Most lines change a few paths: one allocation instead of one per doubling.
    if changes.capacity < 4 { changes.reserveCapacity(4) }
    while true {
      let op: UInt8
      let path: TracePath
      let valueStart: Int
      if let kept = paths.head(at: index, in: line, before: end) {
        (op, path, valueStart) = kept
        keptHeads += 1
      } else {
        let changeStart = index
        guard let head = changeHead(line, at: index) else { return false }
        op = head.op
        index = head.path
        guard index < end, line[index] == UInt8(ascii: "\"") else { return false }
        let pathEnd: Int
        if let cached = paths.path(startingAt: index, in: line, before: end) {
          (path, pathEnd) = cached
        } else {
          guard let found = skipValue(line, from: index), found <= end else { return false }
          pathEnd = found
          let pathText = UnsafeRawBufferPointer(rebasing: line[index..<pathEnd])
          guard case .string(let text)? = try? TraceValue(json: Array(pathText)),
            let parsed = try? TracePath(parsing: text)
          else { return false }
          paths.store(pathText, parsed)
          path = parsed
        }
        index = pathEnd
        if op == UInt8(ascii: "r") {
          valueStart = -1
        } else {
          guard let start = expect(",\"value\":", in: line, at: index) else { return false }
          valueStart = start
          if paths.keepHead(changeStart..<start, in: line, op: op, path: path) { keptHeads += 1 }
        }
      }
      if valueStart >= 0 {
        guard let valueEnd = scalarEnd(line, from: valueStart), valueEnd <= end
        else { return false }
        let bytes = UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])
        let value: TraceValue
        if let number = smallInteger(bytes) {
          value = .int(number)
        } else if let text = plainString(bytes) {
          value = .string(text)
        } else {
          do {
            value = try TraceValue(json: Array(bytes))
          } catch {
            throw Failure(reason: error.description)
          }
        }
        switch value {
        case .object, .reflected: container = true
        default: container = false
        }
        // Moved into the change: a copy retains the path and releases it again.
        if op == UInt8(ascii: "s") {
          changes.append(.set(consume path, consume value))
        } else {
          changes.append(.insert(consume path, consume value))
        }
        index = valueEnd
      } else {
        changes.append(.remove(consume path))
      }
      guard index < end, line[index] == UInt8(ascii: "}") else { return false }
      index += 1
      guard index < end else { return false }
      if line[index] == UInt8(ascii: "]") {
        guard endsAfterChanges(line, at: index + 1) else { return false }
        paths.lastLineIsKeptSet =
          changes.count == 1 && keptHeads == 1 && op == UInt8(ascii: "s") && !container
        return true
      }
      guard line[index] == UInt8(ascii: ",") else { return false }
      index += 1
    }
  }

  /// Whether the line ends after its changes (which end before `index`) as this writer ends
  /// it: `}`, or `,"deps":…}`. Any other member after them (one the line already holds, a
  /// later version's) is the whole-line parse's to read.
  @inline(__always)
  static func endsAfterChanges(_ line: UnsafeRawBufferPointer, at index: Int) -> Bool {
    if index == line.count - 1, line[index] == UInt8(ascii: "}") { return true }
    return endsWithDependencies(line, at: index)
  }

  private static func endsWithDependencies(_ line: UnsafeRawBufferPointer, at index: Int) -> Bool {
    guard let start = expect(",\"deps\":", in: line, at: index),
      let end = skipValue(line, from: start)
    else { return false }
    return end == line.count - 1 && line[end] == UInt8(ascii: "}")
  }

  /// The op of the change written at `index` as this writer writes it (`{"op":"set","path":`,
  /// `insert` or `remove`), as its first letter, and where its path starts; nil for any other
  /// bytes.
  @inline(__always)
  private static func changeHead(
    _ line: UnsafeRawBufferPointer, at index: Int
  ) -> (op: UInt8, path: Int)? {
    guard let afterOp = expect("{\"op\":\"", in: line, at: index) else { return nil }
    if let next = expect("set\",\"path\":", in: line, at: afterOp) {
      return (UInt8(ascii: "s"), next)
    }
    if let next = expect("insert\",\"path\":", in: line, at: afterOp) {
      return (UInt8(ascii: "i"), next)
    }
    if let next = expect("remove\",\"path\":", in: line, at: afterOp) {
      return (UInt8(ascii: "r"), next)
    }
    return nil
  }

  /// `skipValue(line, from: start)` for a `changes` array: the changes as this writer writes
  /// them are passed by comparing their fixed bytes, and only their paths and values are
  /// scanned (typed replay does not read the changes, but must find where they end). Exact:
  /// `skipValue` would go through the same bytes in the same states (a value scanned on its
  /// own ends where it ends inside the array, or is not one value and the array is scanned
  /// whole); any other layout is scanned whole.
  static func skipChanges(_ line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    let end = line.count
    var index = start
    if index < end, line[index] == UInt8(ascii: "[") {
      index += 1
      if index < end, line[index] == UInt8(ascii: "]") { return index + 1 }
      while let head = changeHead(line, at: index), head.path < end,
        line[head.path] == UInt8(ascii: "\""),
        let pathEnd = stringEnd(line, from: head.path + 1)
      {
        index = pathEnd
        if head.op != UInt8(ascii: "r") {
          guard let valueStart = expect(",\"value\":", in: line, at: index),
            let valueEnd = skipValue(line, from: valueStart)
          else { break }
          index = valueEnd
        }
        guard index + 1 < end, line[index] == UInt8(ascii: "}") else { break }
        index += 1
        if line[index] == UInt8(ascii: "]") { return index + 1 }
        guard line[index] == UInt8(ascii: ",") else { break }
        index += 1
      }
    }
    return skipValue(line, from: start)
  }

  /// A JSON string of printable ASCII without escapes, read as the general parser reads it;
  /// nil for anything else.
  static func plainString(_ bytes: UnsafeRawBufferPointer) -> String? {
    let quote = UInt8(ascii: "\"")
    guard bytes.count >= 2, bytes[0] == quote, bytes[bytes.count - 1] == quote else {
      return nil
    }
    let content = UnsafeRawBufferPointer(rebasing: bytes[1..<(bytes.count - 1)])
    for byte in content
    where byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") || byte == quote {
      return nil
    }
    return String(decoding: content, as: UTF8.self)
  }

  /// A JSON integer of at most 18 digits (`-?(0|[1-9][0-9]*)`), read as the general parser
  /// reads it (`.int`); nil for anything else.
  static func smallInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    var index = 0
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { index = 1 }
    let digits = bytes.count - index
    guard digits >= 1, digits <= 18 else { return nil }
    if digits > 1, bytes[index] == UInt8(ascii: "0") { return nil }
    var value: Int64 = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      index += 1
    }
    return negative ? -value : value
  }

  /// The byte range of the `changes` array in `{"step":N,"action":…,"changes":[…]…}`.
  private static func changesRange(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
    guard let start = changesStart(line), let end = skipValue(line, from: start) else {
      return nil
    }
    return start..<end
  }

  /// Where the `changes` array starts in `{"step":N,"action":…,"changes":[…]…}`.
  private static func changesStart(_ line: UnsafeRawBufferPointer) -> Int? {
    actionRange(line).flatMap { changesStart(line, afterAction: $0) }
  }

  /// Where the `changes` array starts, after the action at `action`.
  static func changesStart(_ line: UnsafeRawBufferPointer, afterAction action: Range<Int>)
    -> Int?
  {
    expect(",\"changes\":", in: line, at: action.upperBound)
  }

  /// Where the action's value starts in `{"step":N,"action":…` or `{"action":…`.
  static func actionStart(_ line: UnsafeRawBufferPointer) -> Int? {
    guard let comma = peekStepEnd(line)?.comma else { return nil }
    return expect("\"action\":", in: line, at: comma + 1)
  }

  @inline(__always)
  static func expect(_ text: StaticString, in line: UnsafeRawBufferPointer, at index: Int)
    -> Int?
  {
    let count = text.utf8CodeUnitCount
    guard index >= 0, index + count <= line.count, let base = line.baseAddress else { return nil }
    return memcmp(base + index, text.utf8Start, count) == 0 ? index + count : nil
  }

  /// `skipValue(line, from: start)`, with an integer passed inline: most values a diff sets
  /// are numbers (`14}`), which end at the first byte that is not a digit or a minus. Exact:
  /// `skipValue` runs a scalar to the first of `, } ] : "`, and no byte before it is one.
  @inline(__always)
  static func scalarEnd(_ line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var index = start
    while index < line.count {
      let byte = line[index]
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-") {
        index += 1
        continue
      }
      if index > start,
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
      {
        return index
      }
      break
    }
    return skipValue(line, from: start)
  }

  /// The index just after the JSON value starting at `start` (no whitespace: this writer
  /// writes none), or nil when the bytes are not one well-bracketed value.
  static func skipValue(_ line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var index = start
    var depth = 0
    repeat {
      guard index < line.count else { return nil }
      switch line[index] {
      case UInt8(ascii: "\""):
        guard let end = stringEnd(line, from: index + 1) else { return nil }
        index = end
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        guard depth >= 0 else { return nil }
        index += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        // Between members or elements: only inside a container.
        guard depth > 0 else { return nil }
        index += 1
      default:
        // A scalar (number, true, false, null) runs to the next delimiter.
        while index < line.count {
          let byte = line[index]
          if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\"")
          {
            break
          }
          index += 1
        }
        if depth == 0 { return index }
      }
    } while depth > 0
    return index
  }

  /// The index just after the closing quote of the string whose text starts at `start`, or
  /// nil when it has none. memchr finds each quote; one preceded by an odd run of
  /// backslashes is escaped and the search goes on.
  private static func stringEnd(_ line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard let base = line.baseAddress else { return nil }
    var index = start
    while index < line.count {
      guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), line.count - index)
      else { return nil }
      let quote = UnsafeRawPointer(found) - base
      var backslashes = 0
      while quote - backslashes - 1 >= start,
        line[quote - backslashes - 1] == UInt8(ascii: "\\")
      {
        backslashes += 1
      }
      if backslashes % 2 == 0 { return quote + 1 }
      index = quote + 1
    }
    return nil
  }

  /// The step number at the start of a line (`{"step":N,`), without parsing the rest; nil when
  /// the line does not start that way.
  static func peekStep(_ line: UnsafeRawBufferPointer) -> Int? {
    peekStepEnd(line)?.step ?? nil
  }

  /// How a line starts: `{"step":N,` (step N, `comma` the comma after the number) or
  /// `{"action":` (no step: the previous line's + 1; `comma` is 0, the brace). `comma` is the
  /// byte before the action's key, found without scanning the line again. Nil when the line
  /// starts neither way.
  static func peekStepEnd(_ line: UnsafeRawBufferPointer) -> (step: Int?, comma: Int)? {
    let prefix: StaticString = "{\"step\":"
    let count = prefix.utf8CodeUnitCount
    guard line.count > count, let base = line.baseAddress else { return nil }
    guard memcmp(base, prefix.utf8Start, count) == 0 else {
      return expect("{\"action\":", in: line, at: 0) == nil ? nil : (nil, 0)
    }
    var value = 0
    var index = count
    var digits = 0
    while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(line[index] - 0x30))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      index += 1
      digits += 1
    }
    guard digits > 0, index < line.count, line[index] == UInt8(ascii: ",") else { return nil }
    return (value, index)
  }

  // MARK: The value model's JSON forms

  static func change(_ value: TraceValue) throws(Failure) -> TraceChange {
    do {
      return try TraceChange(jsonValue: value)
    } catch {
      throw Failure(reason: error.description)
    }
  }

  /// Applies a step's changes to the state in place.
  static func apply(_ changes: [TraceChange], to state: inout TraceValue) throws(Failure) {
    do {
      try TraceDiff.apply(changes, to: &state)
    } catch {
      throw Failure(reason: "a change does not apply: \(error.description)")
    }
  }

  // MARK: Bytes

  @inline(__always)
  static func append(_ text: StaticString, into buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  static func appendInt(_ value: Int, into buffer: inout [UInt8]) {
    if value == 0 {
      buffer.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { storage in
      while magnitude > 0 {
        storage[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) {
        buffer.append(storage[index])
      }
    }
  }
}

extension TracePath {
  /// A step record's `changedPaths`: the paths' texts in order, each text once; `text` gives a
  /// path's text (its `description`, or that text kept from before).
  ///
  /// ```swift
  /// TracePath.changedPathTexts([count, title, count])  // ["count", "title"]
  /// ```
  package static func changedPathTexts(
    _ paths: [TracePath], text: (TracePath) -> String = { $0.description }
  ) -> [String] {
    var texts: [String] = []
    texts.reserveCapacity(paths.count)
    for path in paths {
      let text = text(path)
      if !texts.contains(text) { texts.append(text) }
    }
    return texts
  }
}

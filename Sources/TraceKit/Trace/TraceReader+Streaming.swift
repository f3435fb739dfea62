// Reading every step of a range in order, each chunk decompressed once: what `replay`, a whole
// `log` and `export` need, without a query or a line lookup per step.

extension TraceReader {
  /// The payload of one step handed out by `forEachStep`: its line in the chunk being
  /// streamed, parsed only for what is asked (a replay reads the changes and never builds the
  /// action; a log reads the action alone).
  ///
  /// ```swift
  /// try reader.forEachStep(from: 1, to: 10) { row, payload in
  ///   print(row.step, try payload.changes())
  ///   return true
  /// }
  /// ```
  public struct StepPayload {
    /// One reference for the chunk and its file: a payload is copied into and out of a
    /// replay's blocks at every step, and a copy of `DecodedChunk` retains three buffers.
    /// The chunk the line is in, shared by the payloads of its lines.
    package let streamed: StreamedChunk
    /// The line's place in the chunk.
    package let index: Int

    var chunk: DecodedChunk { streamed.chunk }
    var file: String { streamed.file }

    /// The step's number.
    public var step: Int { chunk.lines[index].step }

    /// The action reduced at the step (`.null` for step 0).
    public func action() throws(TraceError) -> TraceValue {
      do {
        return try chunk.action(ofLineAt: index)
      } catch {
        throw failure(error)
      }
    }

    /// The state changes of the step (the diff from the previous recorded step's state).
    public func changes() throws(TraceError) -> [TraceChange] {
      do {
        return try chunk.changes(of: chunk.lines[index])
      } catch {
        throw failure(error)
      }
    }

    /// The changes, parsed with `paths` as the cache of parsed paths instead of the reader's:
    /// a payload handed to another thread is parsed there with a cache of that thread's
    /// own (the reader's belongs to the reader's thread).
    ///
    /// ```swift
    /// let paths = TraceReader.PathCache()  // one per thread
    /// try payload.changes(cachingPathsIn: paths)  // == payload.changes()
    /// ```
    public func changes(cachingPathsIn paths: PathCache) throws(TraceError) -> [TraceChange] {
      do {
        return try chunk.changes(of: chunk.lines[index], paths: paths.cache)
      } catch {
        throw failure(error)
      }
    }

    /// `changes(cachingPathsIn:)` into `changes`, replacing what it held and keeping its
    /// storage: a replay that parses a line per step allocates no array per step.
    ///
    /// ```swift
    /// var changes: [TraceChange] = []
    /// try payload.changes(cachingPathsIn: paths, into: &changes)  // == payload.changes()
    /// ```
    public func changes(
      cachingPathsIn paths: PathCache, into changes: inout [TraceChange]
    ) throws(TraceError) {
      try streamed.changes(ofLineAt: index, cachingPathsIn: paths, into: &changes)
    }

    /// The dependency values the reducer read during the step.
    public func dependencies() throws(TraceError) -> [DependencyRead] {
      do {
        return try chunk.line(at: index).dependencies
      } catch {
        throw failure(error)
      }
    }

    /// The action's JSON and the dependency reads, found in one pass over the line without
    /// building the action or the changes: typed replay decodes each distinct action once, by
    /// its bytes. `body` gets bytes valid only during the call.
    ///
    /// ```swift
    /// try payload.withActionJSON { json, reads in
    ///   print(String(decoding: json, as: UTF8.self), reads)  // {"$case":"plus"} []
    /// }
    /// ```
    ///
    /// `paths` is the cache of recent actions to use instead of the reader's: a payload
    /// handed to another thread is read there with a cache of that thread's own.
    public func withActionJSON<R>(
      cachingIn paths: PathCache? = nil,
      _ body: (_ json: UnsafeRawBufferPointer, _ dependencies: [DependencyRead]) throws -> R
    ) throws -> R {
      let line = chunk.lines[index]
      return try chunk.bytes.withUnsafeBytes { buffer in
        let text = UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end])
        let parts: StepLine.ReplayParts
        do {
          parts = try StepLine.replayParts(parsing: text, paths: paths?.cache ?? chunk.paths)
        } catch let error as StepLine.Failure {
          throw failure(error)
        }
        switch parts.action {
        case .range(let range):
          return try body(UnsafeRawBufferPointer(rebasing: text[range]), parts.dependencies)
        case .bytes(let bytes):
          return try bytes.withUnsafeBytes { try body($0, parts.dependencies) }
        }
      }
    }

    /// `withActionJSON` without a result, compiled here: typed replay calls it at every step
    /// from another module, where the generic one runs unspecialized (about 150 instructions
    /// a step in generic `withUnsafeBytes` and partial applies). `body` keeps what it reads.
    package func forActionJSON(
      cachingIn paths: PathCache?,
      _ body: (_ json: UnsafeRawBufferPointer, _ dependencies: [DependencyRead]) throws -> Void
    ) throws {
      try withActionJSON(cachingIn: paths, body)
    }

    /// The action's bytes as the line stores them, found without reading the rest of the line
    /// (nil when the line does not begin as the writer writes it): for a table of actions
    /// found again by their bytes (`export`). `body` gets bytes valid only during the call.
    ///
    /// Inlined into the caller so that `R` is specialized there: left generic, the call cost a
    /// tenth of `export`'s work in generic metadata look-ups and `Optional.map`.
    @inlinable
    public func withStoredActionBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
      var result: R?
      forStoredActionBytes { result = body($0) }
      return result
    }

    /// Calls `body` with the action's bytes as the line stores them, unless the line does not
    /// begin as the writer writes it.
    @usableFromInline
    func forStoredActionBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
      let line = chunk.lines[index]
      chunk.bytes.withUnsafeBytes { buffer in
        let text = UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end])
        if let range = chunk.paths.actionRange(text, stepEnd: line.stepEnd) {
          body(UnsafeRawBufferPointer(rebasing: text[range]))
        }
      }
    }

    private func failure(_ error: StepLine.Failure) -> TraceError {
      streamed.failure(error, ofLineAt: index)
    }
  }

  /// A chunk being streamed and the file it is from, shared by the payloads of its lines.
  /// A replay hands a block of steps to its checking thread with each chunk once, and each
  /// step as its line's place in it, instead of a payload (a reference counted per step, on
  /// both threads).
  package final class StreamedChunk: @unchecked Sendable {
    let chunk: DecodedChunk
    let file: String

    init(_ chunk: DecodedChunk, file: String) {
      self.chunk = chunk
      self.file = file
    }

    /// The payload of the line at `index` (a `StepPayload.index` of this chunk).
    package func payload(ofLineAt index: Int) -> StepPayload {
      StepPayload(streamed: self, index: index)
    }

    /// The line of `step`, looked for from `index`: the line of the step asked for before it
    /// (steps go up), or -1 before the first (a binary search). `index` becomes the line's.
    @inline(__always)
    func payload(of step: Int, from index: inout Int) throws(TraceError) -> StepPayload {
      StepPayload(streamed: self, index: try lineIndex(of: step, from: &index))
    }

    /// `payload(of:from:)` as the line's place in the chunk.
    @inline(__always)
    func lineIndex(of step: Int, from index: inout Int) throws(TraceError) -> Int {
      index =
        index < 0
        ? chunk.lineIndex(of: step) ?? chunk.lines.count
        : chunk.lineIndex(of: step, from: index)
      guard chunk.step(ofLineAt: index) == step else {
        throw TraceError(
          .corruptChunk("the chunk has no line for this step"), file: file, step: step,
          chunk: chunk.id)
      }
      return index
    }

    /// `StepPayload.changes(cachingPathsIn:into:)` of the line at `index`.
    func changes(
      ofLineAt index: Int, cachingPathsIn paths: PathCache, into changes: inout [TraceChange]
    ) throws(TraceError) {
      do {
        try chunk.changes(of: chunk.lines[index], paths: paths.cache, into: &changes)
      } catch {
        throw failure(error, ofLineAt: index)
      }
    }

    /// What a line that does not parse is reported as.
    func failure(_ error: StepLine.Failure, ofLineAt index: Int) -> TraceError {
      TraceError(
        .corruptChunk(error.reason), file: file, step: chunk.lines[index].step, chunk: chunk.id)
    }
  }

  /// The parsed change paths of one thread's `StepPayload.changes(cachingPathsIn:)`.
  public final class PathCache {
    let cache = StepLine.PathCache()

    public init() {}

    /// Whether the last line read through this cache is one `set` of a value other than an
    /// object, with the op and path of the change head it keeps
    /// (`StepLine.PathCache.lastLineIsKeptSet`).
    package var lastLineIsKeptSet: Bool { cache.lastLineIsKeptSet }

    /// The number of the kept change head when `lastLineIsKeptSet` (the same number, the same
    /// op and path), else nil: one call for a replay's every step, where the two getters
    /// cost two calls and a retain and a release of the cache.
    package var keptSetHead: Int? { cache.lastLineIsKeptSet ? cache.keptHeadNumber : nil }
  }

  /// A chunk read, decompressed and split into lines when its first line is asked for: a
  /// replay reads its chunks on one thread and decompresses and splits them and finds the
  /// steps' lines on the thread that checks the steps, so the reading thread (the slower
  /// one) does not. (The last chunk of a trace, which may still be written, is decompressed
  /// when it is read.)
  ///
  /// A chunk that does not decompress or split (its lines disagree with its rows) and a step
  /// without a line throw where `forEachStep` throws, with the same error: at the first step
  /// asked for.
  ///
  /// ```swift
  /// var handedOver: [(step: Int, chunk: TraceReader.LoadedChunk)] = []
  /// try reader.forEachStepLine(from: 1, to: 3) { entry, chunk in
  ///   handedOver.append((entry.step, chunk))  // the reading thread does not split the chunk
  ///   return true
  /// }
  /// for (step, chunk) in handedOver {        // on the checking thread
  ///   print(try chunk.payload(of: step).step)  // 1, 2, 3
  /// }
  /// ```
  package final class LoadedChunk: @unchecked Sendable {
    /// The parts and bytes of a chunk not split yet.
    struct Unsplit {
      var parts: [DecodedChunk.Part]
      var content: Content
      var stepsImplied: Bool
      var paths: StepLine.PathCache
    }

    /// A chunk's bytes, or its frame still compressed (a chunk that is not its trace's last:
    /// see `TraceReader.readChunk(id:step:deferringDecompression:)`).
    enum Content {
      case bytes([UInt8])
      /// The frame and the size of its content.
      case frame([UInt8], size: Int)
    }

    /// The chunk's first step.
    package let id: Int
    /// The last step of the chunk's last part.
    package let lastStep: Int
    let file: String
    /// The step the chunk was read for: a chunk that does not split is reported there.
    let readFor: Int
    // Set on the thread that asks for lines, read only there; a stored `let` would need the
    // split on the reading thread.
    @exclusivity(unchecked) private var unsplit: Unsplit?
    @exclusivity(unchecked) private var streamed: StreamedChunk?
    /// The line of the last step asked for (steps go up); -1 before the first.
    @exclusivity(unchecked) private var index = -1

    init(unsplit: Unsplit, id: Int, lastStep: Int, readFor: Int, file: String) {
      self.unsplit = unsplit
      self.id = id
      self.lastStep = lastStep
      self.readFor = readFor
      self.file = file
    }

    /// A chunk split already.
    package init(_ streamed: StreamedChunk) {
      self.streamed = streamed
      id = streamed.chunk.id
      lastStep = streamed.chunk.lastStep
      readFor = id
      file = streamed.file
    }

    /// The chunk split into lines (split at the first call).
    func decoded() throws(TraceError) -> DecodedChunk {
      try split().chunk
    }

    /// The line of `step`; each step asked for is at or after the one asked for before it.
    package func payload(of step: Int) throws(TraceError) -> StepPayload {
      let current: StreamedChunk
      if let streamed { current = streamed } else { current = try split() }
      return try current.payload(of: step, from: &index)
    }

    /// Finds the line of `step` as `payload(of:)` does (and throws what it throws), and
    /// when `parse` is true parses the line's changes into `changes`, as the payload's
    /// `changes(cachingPathsIn:into:)` does: a replay reads every step so, without a payload
    /// made and dropped (a reference counted) at each.
    package func changes(
      of step: Int, parsing parse: Bool, cachingPathsIn paths: PathCache,
      into changes: inout [TraceChange]
    ) throws(TraceError) {
      if streamed == nil { _ = try split() }
      // Lent, not retained: this chunk holds its split form from here on, and a retain and
      // release of it (and of it again for each of its fields read) cost about 100
      // instructions a step.
      let result = Unmanaged.passUnretained(streamed.unsafelyUnwrapped)
        ._withUnsafeGuaranteedRef { current in
          Result { () throws(TraceError) in
            let line = try current.lineIndex(of: step, from: &index)
            if parse {
              try current.changes(ofLineAt: line, cachingPathsIn: paths, into: &changes)
            }
          }
        }
      try result.get()
    }

    /// The chunk split into lines (split at the first call).
    func split() throws(TraceError) -> StreamedChunk {
      if let streamed { return streamed }
      guard let raw = unsplit else {
        preconditionFailure("a loaded chunk holds its bytes or its lines")
      }
      let bytes: [UInt8]
      switch raw.content {
      case .bytes(let decompressed):
        bytes = decompressed
      case .frame(let frame, let size):
        let decoded = try TraceReader.decompressed(
          frame, size: size, file: file, step: readFor, chunk: id)
        guard decoded.isEnded else {
          throw TraceReader.missingEndMark(file: file, step: readFor, chunk: id)
        }
        bytes = decoded.bytes
      }
      do {
        var decoded = try DecodedChunk(
          id: id, parts: raw.parts, bytes: bytes, stepsImplied: raw.stepsImplied)
        decoded.paths = raw.paths
        let split = StreamedChunk(decoded, file: file)
        streamed = split
        unsplit = nil
        return split
      } catch {
        throw TraceError(.corruptChunk(error.reason), file: file, step: readFor, chunk: id)
      }
    }
  }

  /// Streams the steps `from…to` in order: each index row with its payload. Each chunk is
  /// read and decompressed once and only one is held at a time, so memory stays flat over any
  /// range; `body` returns false to stop. Errors are the trace's `TraceError` (a row without
  /// a line in its chunk is `.corruptChunk`) or whatever `body` throws.
  ///
  /// ```swift
  /// var state = try reader.state(at: 0)
  /// try reader.forEachStep(from: 1, to: .max) { row, payload in
  ///   try TraceDiff.apply(try payload.changes(), to: &state)
  ///   return state.stableHash == row.stateHash
  /// }
  /// ```
  public func forEachStep(
    from: Int, to: Int, _ body: (StepRow, StepPayload) throws -> Bool
  ) throws {
    var lines = LineStream()
    try forEachRow(from: from, to: to) { row in
      try body(row, try lines.payload(of: row.step, in: self))
    }
  }

  /// `forEachStep` for typed replay: each row checked as `forEachStep` checks it (every
  /// column, same order, same messages), but handed out as the step, origin and state hash
  /// and the action path (which its reports name), without the row's changed paths, with the
  /// step's line. `body` returns false to stop.
  ///
  /// ```swift
  /// try reader.forEachStepAction(from: 1, to: 3) { entry, actionPath, payload in
  ///   print(entry.step, actionPath, payload.step)  // 1 plus 1
  ///   return true
  /// }
  /// ```
  package func forEachStepAction(
    from: Int, to: Int, _ body: (StepIndexEntry, String, StepPayload) throws -> Bool
  ) throws {
    var lines = LineStream()
    try forEachEntryAndActionPath(from: from, to: to) { row in
      try body(row.entry, row.actionPath, try lines.payload(of: row.entry.step, in: self))
    }
  }

  /// `forEachStep` for a replay: each row checked as `forEachStep` checks it (every column,
  /// same order, same messages), but handed out as the step, origin and state hash alone,
  /// without the row's action path and changed paths, with the chunk that holds its line,
  /// neither decompressed nor split yet: `chunk.payload(of: entry.step)` finds the line (or
  /// throws what `forEachStep` throws at that step), on whichever thread checks the steps.
  /// The chunk is handed with its first row only (nil: the previous row's chunk), so that a
  /// row costs no reference count. `body` returns false to stop.
  ///
  /// ```swift
  /// var chunk: TraceReader.LoadedChunk?
  /// try reader.forEachStepLine(from: 1, to: 3) { entry, next in
  ///   chunk = next ?? chunk
  ///   print(entry.step, entry.origin)  // 1 user
  ///   return true
  /// }
  /// ```
  package func forEachStepLine(
    from: Int, to: Int, _ body: (StepIndexEntry, LoadedChunk?) -> Bool
  ) throws(TraceError) {
    var chunks = ChunkStream()
    do {
      try forEachEntry(from: from, to: to) { entry in
        body(entry, try chunks.next(holding: entry.step, in: self))
      }
    } catch let error as TraceError {
      throw error
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
  }

  /// The chunk a stream of rows is in and the line of its last row: each chunk is read,
  /// decompressed and split once, and only one is held at a time.
  private struct LineStream {
    // The chunk's fields are read in place (`chunk?.…`), not through a copy of the chunk:
    // a copy retains its bytes, lines and path cache, at every step.
    var chunk: StreamedChunk?
    var index = -1

    /// The line of `step`, the next row of the stream (steps go up).
    mutating func payload(
      of step: Int, in reader: TraceReader
    ) throws(TraceError) -> StepPayload {
      if let current = chunk, step <= current.chunk.lastStep {
        return try current.payload(of: step, from: &index)
      }
      // Drop the previous chunk before reading the next, so at most one is in memory.
      chunk = nil
      let range = try reader.chunkRange(holding: step)
      let loaded = try reader.readChunk(id: range.first, step: step).split()
      chunk = loaded
      index = -1
      return try loaded.payload(of: step, from: &index)
    }
  }

  /// The chunks a stream of rows is in, not decompressed (unless it is the last) nor split
  /// (`LoadedChunk`): each chunk is read once, and the stream holds none.
  private struct ChunkStream {
    /// The last step of the last chunk read (below every step before the first).
    var lastStep = Int.min

    /// The chunk of `step`, the next row of the stream (steps go up), when it is not the
    /// previous row's; nil when it is.
    mutating func next(
      holding step: Int, in reader: TraceReader
    ) throws(TraceError) -> LoadedChunk? {
      if step <= lastStep { return nil }
      let range = try reader.chunkRange(holding: step)
      let loaded = try reader.readChunk(
        id: range.first, step: step, deferringDecompression: true)
      lastStep = loaded.lastStep
      return loaded
    }
  }
}

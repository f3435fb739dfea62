// Reading payloads: the step lines of compressed chunks, keyframes, and states rebuilt from
// them.

extension TraceReader {
  /// The action reduced at `step` (`.null` for step 0).
  ///
  /// ```swift
  /// print(try reader.action(at: 1))  // .increment
  /// ```
  public func action(at step: Int) throws(TraceError) -> TraceValue {
    try stepLine(at: step).action
  }

  /// The state changes of `step` (the diff from the previous step's state).
  public func changes(at step: Int) throws(TraceError) -> [TraceChange] {
    try stepLine(at: step).changes
  }

  /// The dependency values the reducer read during `step`.
  public func dependencies(at step: Int) throws(TraceError) -> [DependencyRead] {
    try stepLine(at: step).dependencies
  }

  /// The state after `step`: the nearest keyframe at or before it plus the changes of the
  /// steps in between. The result's hash is checked against the index row; a mismatch throws
  /// `.hashMismatch`.
  ///
  /// ```swift
  /// print(try reader.state(at: 500))  // (count: 500)
  /// ```
  public func state(at step: Int) throws(TraceError) -> TraceValue {
    if let state = try stateFromCache(at: step) { return state }
    let target = try row(at: step)
    let keyframe = try keyframeStep(atOrBefore: step)
    var current: (step: Int, state: TraceValue)
    if let cached = cachedState, cached.step >= keyframe, cached.step <= step {
      current = cached
    } else {
      current = (keyframe, try keyframeState(at: keyframe))
    }
    if current.step < step {
      let steps = try stepChunks(after: current.step, through: step)
      for (number, chunk) in steps {
        let changes = try stepChanges(step: number, chunk: chunk)
        do {
          try StepLine.apply(changes, to: &current.state)
        } catch {
          throw TraceError(.corruptChunk(error.reason), file: path, step: number, chunk: chunk)
        }
        current.step = number
      }
    }
    let actual = current.state.stableHash
    guard actual == target.stateHash else {
      throw TraceError(
        .hashMismatch(expected: target.stateHash, actual: actual), file: path, step: step)
    }
    cachedState = (step, current.state)
    return current.state
  }

  /// Replaying in order: when the cached state and `step` lie in the cached chunk, the
  /// chunk's lines and the hashes loaded with it give the state without any query.
  private func stateFromCache(at step: Int) throws(TraceError) -> TraceValue? {
    guard var current = cachedState, current.step < step, let chunk = cachedChunk,
      let lines = chunk.lines(after: current.step, through: step),
      let expected = lines.last?.stateHash
    else { return nil }
    // A chunk may hold the lines on both sides of a gap (steps the recorder dropped): the line
    // after the gap is a diff from a state that was never recorded, so only the keyframe the
    // writer stored there can continue. Leave that to the keyframe path.
    var previous = current.step
    for line in lines {
      guard line.step == previous + 1 else { return nil }
      previous = line.step
    }
    for line in lines {
      do {
        try StepLine.apply(try chunk.changes(of: line), to: &current.state)
      } catch {
        throw TraceError(.corruptChunk(error.reason), file: path, step: line.step, chunk: chunk.id)
      }
      current.step = line.step
    }
    // The cache keeps the state only after its hash was checked.
    cachedState = nil
    let actual = current.state.stableHash
    guard actual == expected else {
      throw TraceError(.hashMismatch(expected: expected, actual: actual), file: path, step: step)
    }
    cachedState = current
    return current.state
  }

  // MARK: Lines

  func stepLine(at step: Int) throws(TraceError) -> StepLine {
    // Reading steps in order: the cached chunk holds the line, and no query is needed.
    if let cached = cachedChunk, cached.id <= step, step <= cached.lastStep,
      let line = try? cached.line(of: step), line.step == step
    {
      return line
    }
    let chunk = try indexRow(at: step).chunk
    return try stepLine(step: step, chunk: chunk)
  }

  private func stepLine(step: Int, chunk: Int) throws(TraceError) -> StepLine {
    let decoded = try decodedChunk(id: chunk, step: step)
    let line: StepLine?
    do {
      line = try decoded.line(of: step)
    } catch {
      throw TraceError(.corruptChunk(error.reason), file: path, step: step, chunk: chunk)
    }
    guard let line, line.step == step else {
      throw TraceError(
        .corruptChunk("the chunk has no line for this step"), file: path, step: step,
        chunk: chunk)
    }
    return line
  }

  private func stepChanges(step: Int, chunk: Int) throws(TraceError) -> [TraceChange] {
    let decoded = try decodedChunk(id: chunk, step: step)
    let changes: [TraceChange]?
    do {
      changes = try decoded.changes(of: step)
    } catch {
      throw TraceError(.corruptChunk(error.reason), file: path, step: step, chunk: chunk)
    }
    guard let changes else {
      throw TraceError(
        .corruptChunk("the chunk has no line for this step"), file: path, step: step,
        chunk: chunk)
    }
    return changes
  }

  /// The steps after `after` up to `through`, with the chunk holding each.
  private func stepChunks(after: Int, through: Int) throws(TraceError) -> [(Int, Int)] {
    var steps: [Int] = []
    defer { selectStepsStatement.reset() }
    do {
      try selectStepsStatement.bind(after, at: 1)
      try selectStepsStatement.bind(through, at: 2)
      while try selectStepsStatement.step() {
        steps.append(Int(selectStepsStatement.int64(at: 0)))
      }
    } catch {
      throw queryError(error, step: through)
    }
    var result: [(Int, Int)] = []
    result.reserveCapacity(steps.count)
    var chunk: (first: Int, last: Int)?
    var expected = after + 1
    for step in steps {
      if step != expected {
        // Diffs apply only to the state just before them: a hole is deleted rows, or a gap
        // whose keyframe (the writer stores one after every gap) was deleted.
        try checkDropped(first: expected, last: step - 1)
        throw TraceError(
          .corruptKeyframe("the keyframe stored after the dropped steps before it is missing"),
          file: path, step: step)
      }
      expected = step + 1
      let current: (first: Int, last: Int)
      if let chunk, step <= chunk.last {
        current = chunk
      } else {
        current = try chunkRange(holding: step)
      }
      chunk = current
      result.append((step, current.first))
    }
    return result
  }

  /// The chunk, decompressed and split into lines; the last one is cached. A cached chunk is
  /// reused only for steps it already held: a writer may since have stored a longer version.
  private func decodedChunk(id: Int, step: Int) throws(TraceError) -> DecodedChunk {
    if let cached = cachedChunk, cached.id == id, step <= cached.lastStep {
      return cached
    }
    var decoded = try loadChunk(id: id, step: step)
    // Hashes from the step asked for on: replay goes forward, and a cold seek into a large
    // chunk need not read the rows before it.
    decoded.attachHashes(try stateHashes(from: max(id, step), through: decoded.lastStep))
    cachedChunk = decoded
    return decoded
  }

  /// Reads, decompresses and splits one chunk (`step`: the step it is read for, for messages).
  func loadChunk(id: Int, step: Int) throws(TraceError) -> DecodedChunk {
    try readChunk(id: id, step: step).decoded()
  }

  /// Reads and decompresses one chunk, to be split into lines when a line is first asked for
  /// (`step`: the step it is read for, for messages). A chunk is one LZ4 frame stored in one
  /// or more rows (its parts, in step order); the last chunk of a trace still being written
  /// may not have its end mark yet.
  ///
  /// `deferringDecompression`: a chunk that is not the trace's last is decompressed when it
  /// is split instead (a replay reads on one thread and splits on the other, which then
  /// decompresses too), with the same errors: a frame without its end mark is damaged in
  /// any chunk but the last, which is decompressed here.
  func readChunk(
    id: Int, step: Int, deferringDecompression: Bool = false
  ) throws(TraceError) -> LoadedChunk {
    let statement = selectChunkStatement
    defer { statement.reset() }
    let file = path
    func damaged(_ reason: String) -> TraceError {
      TraceError(.corruptChunk(reason), file: file, step: step, chunk: id)
    }
    var frame: [UInt8] = []
    var rawSize = 0
    var lastStep = id
    var parts: [DecodedChunk.Part] = []
    var isLastChunk = true
    do {
      try statement.bind(id, at: 1)
      while try statement.step() {
        // Columns: first_step, chunk, last_step, step_count, raw_size, data.
        let chunk = try Self.step(statement, 1, "chunk", damaged)
        guard chunk == id else {
          isLastChunk = false
          break
        }
        let first = try Self.step(statement, 0, "first_step", damaged)
        if parts.isEmpty, first != id { break }
        let last = try Self.step(statement, 2, "last_step", damaged)
        guard last >= first, first > lastStep || parts.isEmpty else {
          throw damaged("a part's steps \(first)…\(last) overlap or run backwards")
        }
        let partRaw = try Self.integer(statement, 4, "raw_size", in: Self.payloadSizes, damaged)
        guard partRaw <= Int64(TraceSchema.payloadLimit - rawSize) else {
          throw damaged("its parts hold more than \(TraceSchema.payloadLimit) bytes")
        }
        let count = try Self.step(statement, 3, "step_count", damaged)
        rawSize += Int(partRaw)
        lastStep = last
        statement.withBlob(at: 5) { frame.append(contentsOf: $0) }
        parts.append(
          DecodedChunk.Part(
            firstStep: first, lastStep: last, stepCount: count, rawSize: Int(partRaw)))
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw queryError(error, step: step, chunk: id)
    } catch {
      throw TraceError(.database("\(error)"), file: path, step: step, chunk: id)
    }
    guard !parts.isEmpty else { throw damaged("no such chunk") }
    let content: LoadedChunk.Content
    if deferringDecompression, !isLastChunk {
      content = .frame(frame, size: rawSize)
    } else {
      content = .bytes(
        try decompressChunk(frame, size: rawSize, id: id, step: step, isLast: isLastChunk))
    }
    return LoadedChunk(
      unsplit: .init(
        parts: parts, content: content, stepsImplied: formatVersion >= 3, paths: pathCache),
      id: id, lastStep: lastStep, readFor: step, file: path)
  }

  /// A chunk's frame decompressed. Its end mark may be missing only while its writer may
  /// still add to it: in the last chunk of a trace not closed yet.
  private func decompressChunk(
    _ frame: [UInt8], size: Int, id: Int, step: Int, isLast: Bool
  ) throws(TraceError) -> [UInt8] {
    let decoded = try Self.decompressed(frame, size: size, file: path, step: step, chunk: id)
    if !decoded.isEnded {
      let complete: String?
      do {
        complete = try Self.metaValue(database, TraceSchema.Key.complete)
      } catch {
        throw queryError(error, step: step, chunk: id)
      }
      guard isLast, complete != "1" else {
        throw Self.missingEndMark(file: path, step: step, chunk: id)
      }
    }
    return decoded.bytes
  }

  /// A chunk's frame decompressed, and whether it has its end mark.
  static func decompressed(
    _ frame: [UInt8], size: Int, file: String, step: Int, chunk: Int
  ) throws(TraceError) -> (bytes: [UInt8], isEnded: Bool) {
    let result = frame.withUnsafeBytes { buffer in
      Result { () throws(LZ4FrameError) in
        try LZ4Frame.decompress(
          buffer, size: size, limit: TraceSchema.payloadLimit, allowsMissingEnd: true)
      }
    }
    do {
      return try result.get()
    } catch {
      throw TraceError(.corruptChunk(error.description), file: file, step: step, chunk: chunk)
    }
  }

  static func missingEndMark(file: String, step: Int, chunk: Int) -> TraceError {
    TraceError(
      .corruptChunk("its LZ4 frame has no end mark"), file: file, step: step, chunk: chunk)
  }

  private func stateHashes(from first: Int, through last: Int)
    throws(TraceError) -> [(step: Int, hash: UInt64)]
  {
    var hashes: [(step: Int, hash: UInt64)] = []
    do {
      let statement = try database.prepare(
        "SELECT step, state_hash FROM steps WHERE step >= ? AND step <= ? ORDER BY step")
      defer { statement.reset() }
      try statement.bind(first, at: 1)
      try statement.bind(last, at: 2)
      while try statement.step() {
        hashes.append((Int(statement.int64(at: 0)), UInt64(bitPattern: statement.int64(at: 1))))
      }
    } catch {
      throw queryError(error, step: first)
    }
    return hashes
  }

  // MARK: Keyframes

  /// The full state stored as a keyframe at `step` (hash checked), or nil when the step has
  /// no keyframe. Unlike `state(at:)` it never applies diffs, so a replay can compare the
  /// state it rebuilt with what the writer stored.
  ///
  /// ```swift
  /// try reader.keyframe(at: 256)  // (count: 256)
  /// try reader.keyframe(at: 257)  // nil
  /// ```
  public func keyframe(at step: Int) throws(TraceError) -> TraceValue? {
    guard step >= 0 else { return nil }
    // One query: the row `keyframeStep(atOrBefore:)` finds is the one `keyframeState(at:)`
    // reads when it is this step's.
    let statement = selectKeyframeStatement
    defer { statement.reset() }
    guard try keyframeStep(atOrBefore: step, in: statement) == step else { return nil }
    return try keyframeState(of: statement, at: step)
  }

  /// The steps that hold a keyframe, in order: those at multiples of the interval, those
  /// after gaps, and any other row the file holds (which `state(at:)` would start from).
  ///
  /// ```swift
  /// try reader.keyframeSteps()  // [0, 256, 512]
  /// ```
  package func keyframeSteps() throws(TraceError) -> [Int] {
    var steps: [Int] = []
    do {
      let statement = try database.prepare("SELECT step FROM keyframes ORDER BY step")
      while try statement.step() { steps.append(Int(statement.int64(at: 0))) }
    } catch {
      throw queryError(error)
    }
    return steps
  }

  private func keyframeStep(atOrBefore step: Int) throws(TraceError) -> Int {
    let statement = selectKeyframeStatement
    defer { statement.reset() }
    return try keyframeStep(atOrBefore: step, in: statement)
  }

  /// `keyframeStep(atOrBefore:)` with `statement` (the keyframe query) left on the row found.
  private func keyframeStep(
    atOrBefore step: Int, in statement: SQLiteStatement
  ) throws(TraceError) -> Int {
    do {
      try statement.bind(step, at: 1)
      guard try statement.step() else {
        throw TraceError(.missingKeyframe, file: path, step: step)
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw queryError(error, step: step)
    } catch {
      throw TraceError(.database("\(error)"), file: path, step: step)
    }
    let file = path
    return try Self.step(statement, 0, "step") { reason in
      TraceError(.corruptKeyframe(reason), file: file, step: step)
    }
  }

  private func keyframeState(at step: Int) throws(TraceError) -> TraceValue {
    let statement = selectKeyframeStatement
    defer { statement.reset() }
    let found: Bool
    do {
      try statement.bind(step, at: 1)
      found = try statement.step()
    } catch {
      throw queryError(error, step: step)
    }
    guard found, Int(statement.int64(at: 0)) == step else {
      throw TraceError(.missingKeyframe, file: path, step: step)
    }
    return try keyframeState(of: statement, at: step)
  }

  /// The state of the keyframe row `statement` stands on, which is `step`'s.
  private func keyframeState(
    of statement: SQLiteStatement, at step: Int
  ) throws(TraceError) -> TraceValue {
    let file = path
    let hash = UInt64(
      bitPattern: try Self.integer(statement, 1, "state_hash", in: Self.anyInteger) { reason in
        TraceError(.corruptKeyframe(reason), file: file, step: step)
      })
    let rawSize = try Self.integer(statement, 2, "raw_size", in: Self.payloadSizes) { reason in
      TraceError(.corruptKeyframe(reason), file: file, step: step)
    }
    let bytes = try decompress(
      statement, column: 3, expectedSize: Int(rawSize), step: step, chunk: nil, keyframe: true)
    guard bytes.last == UInt8(ascii: "\n") else {
      throw TraceError(.corruptKeyframe("no newline after the state"), file: path, step: step)
    }
    let state: TraceValue
    do {
      state = try TraceValue(json: Array(bytes.dropLast()))
    } catch {
      throw TraceError(.corruptKeyframe(error.description), file: path, step: step)
    }
    let actual = state.stableHash
    guard actual == hash else {
      throw TraceError(.hashMismatch(expected: hash, actual: actual), file: path, step: step)
    }
    return state
  }

  private func decompress(
    _ statement: SQLiteStatement, column: Int32, expectedSize: Int, step: Int, chunk: Int?,
    keyframe: Bool
  ) throws(TraceError) -> [UInt8] {
    let result = statement.withBlob(at: column) { frame in
      Result { () throws(LZ4FrameError) in try LZ4Frame.decompress(frame, limit: expectedSize) }
    }
    let bytes: [UInt8]
    do {
      bytes = try result.get()
    } catch {
      let kind: TraceError.Kind =
        keyframe ? .corruptKeyframe(error.description) : .corruptChunk(error.description)
      throw TraceError(kind, file: path, step: step, chunk: chunk)
    }
    guard bytes.count == expectedSize else {
      let reason = "\(bytes.count) bytes decompressed, raw_size says \(expectedSize)"
      let kind: TraceError.Kind = keyframe ? .corruptKeyframe(reason) : .corruptChunk(reason)
      throw TraceError(kind, file: path, step: step, chunk: chunk)
    }
    return bytes
  }
}

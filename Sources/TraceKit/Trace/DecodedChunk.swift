import Foundation

/// A decompressed payload chunk with the byte range of each step's line, so one step's line
/// can be parsed without parsing the others.
struct DecodedChunk {
  struct Line {
    var step: Int
    var start: Int
    var end: Int
    /// The byte before the line's `"action"` key, from `start`: the comma after the step
    /// number, or the line's opening brace when it carries none.
    var stepEnd: Int
    /// The step's `state_hash` from the index, loaded with the chunk so that replaying the
    /// steps of one chunk needs no further query; nil when the index has no row for it.
    var stateHash: UInt64?
  }

  var id: Int
  var lastStep: Int
  var bytes: [UInt8]
  /// Sorted by step.
  var lines: [Line]
  /// Parsed change paths; the reader shares one across the chunks it reads.
  var paths = StepLine.PathCache()

  struct Failure: Error {
    var reason: String
  }

  /// One row of the chunk: the steps and bytes of lines it declares.
  struct Part {
    var firstStep: Int
    var lastStep: Int
    var stepCount: Int
    var rawSize: Int
  }

  /// Splits the decompressed bytes into lines and numbers them: a line's step is the one it
  /// carries (`{"step":N,`), else the previous line's + 1. Checks each part's lines against
  /// its row: its bytes end at a line's end, its lines' steps increase and lie inside it,
  /// its first and last are its `first_step` and `last_step`, and it holds `step_count`
  /// lines. `stepsImplied` is false for versions 1 and 2, whose lines all carry their step.
  init(id: Int, parts: [Part], bytes: [UInt8], stepsImplied: Bool) throws(Failure) {
    self.id = id
    self.lastStep = parts.last?.lastStep ?? id
    self.bytes = bytes
    var lines: [Line] = []
    // Bounded at each part: a hostile file's counts (each up to 2^48) must not overflow.
    let declared = parts.reduce(0) { min($0 + $1.stepCount, bytes.count) }
    // A line per step, and a line is at least `{"action":…}\n`: no reallocation on the way.
    lines.reserveCapacity(min(declared, bytes.count / 12))
    var failure: Failure?
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var start = 0
      var previous: Int?
      var partIndex = 0
      var partEnd = 0
      var partLines = 0
      func damaged(_ reason: String) { failure = Failure(reason: reason) }
      func named(_ part: Part) -> String { "part \(part.firstStep)…\(part.lastStep)" }
      /// Checks the part just read through; false when it does not hold what its row says.
      func closePart() -> Bool {
        let part = parts[partIndex]
        guard partLines == part.stepCount else {
          damaged(
            "\(named(part)) holds \(partLines) lines, but its step_count is \(part.stepCount)")
          return false
        }
        // A part that holds lines has a previous step.
        guard previous == part.lastStep else {
          damaged("\(named(part)) ends with step \(previous ?? -1), not its last_step")
          return false
        }
        partIndex += 1
        partLines = 0
        return true
      }
      while start < buffer.count {
        if partLines == 0 {
          guard partIndex < parts.count else {
            damaged("it holds more bytes than its parts' raw_size")
            return
          }
          partEnd += parts[partIndex].rawSize
        }
        let part = parts[partIndex]
        // memchr: a byte loop over a 256 KiB chunk was most of a cold seek's time.
        let end =
          memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
          .map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? buffer.count
        guard end < buffer.count else {
          damaged("the last line has no newline")
          return
        }
        guard end < partEnd else {
          damaged("\(named(part))'s raw_size ends inside a line")
          return
        }
        let line = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        guard let peeked = StepLine.peekStepEnd(line), stepsImplied || peeked.step != nil else {
          damaged(
            stepsImplied
              ? "a line starts with neither {\"step\":N, nor {\"action\":"
              : "a line does not start with {\"step\":N,")
          return
        }
        let step: Int
        if let explicit = peeked.step {
          if let previous, explicit <= previous {
            damaged("a line of step \(explicit) follows the line of step \(previous)")
            return
          }
          step = explicit
        } else if let previous {
          step = previous + 1
        } else {
          damaged("its first line does not carry its step")
          return
        }
        guard step >= part.firstStep, step <= part.lastStep else {
          damaged("a line of step \(step) lies outside \(named(part))")
          return
        }
        if partLines == 0, step != part.firstStep {
          damaged("\(named(part)) starts with step \(step)")
          return
        }
        previous = step
        partLines += 1
        lines.append(
          Line(step: step, start: start, end: end, stepEnd: peeked.comma, stateHash: nil))
        start = end + 1
        if start == partEnd, !closePart() { return }
      }
      if failure == nil, partIndex < parts.count {
        let part = named(parts[partIndex])
        damaged(partLines == 0 ? "\(part) holds no lines" : "\(part) ends before its raw_size")
      }
    }
    if let failure { throw failure }
    self.lines = lines
  }

  /// The parsed line of `step`, or nil when the chunk has none.
  func line(of step: Int) throws(StepLine.Failure) -> StepLine? {
    guard let line = lineRange(of: step) else { return nil }
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]),
          step: line.step)
      }
    }
    return try result.get()
  }

  /// Only the changes of `step`'s line, or nil when the chunk has none.
  func changes(of step: Int) throws(StepLine.Failure) -> [TraceChange]? {
    guard let line = lineRange(of: step) else { return nil }
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine.changes(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]),
          paths: paths)
      }
    }
    return try result.get()
  }

  /// Records the index hashes of the chunk's steps (pairs in step order).
  mutating func attachHashes(_ hashes: [(step: Int, hash: UInt64)]) {
    var index = 0
    for pair in hashes {
      while index < lines.count, lines[index].step < pair.step { index += 1 }
      guard index < lines.count else { return }
      if lines[index].step == pair.step { lines[index].stateHash = pair.hash }
    }
  }

  /// The lines after step `after` up to step `through`, when this chunk holds both (so it
  /// holds every step in between); nil otherwise.
  func lines(after: Int, through: Int) -> ArraySlice<Line>? {
    guard let start = lineIndex(of: after), let end = lineIndex(of: through), start < end else {
      return nil
    }
    return lines[(start + 1)...end]
  }

  /// Parses a line's changes, with `cache` as the cache of parsed paths (nil: the chunk's).
  func changes(of line: Line, paths cache: StepLine.PathCache? = nil)
    throws(StepLine.Failure) -> [TraceChange]
  {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine.changes(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]),
          paths: cache ?? paths)
      }
    }
    return try result.get()
  }

  /// `changes(of:paths:)` into `changes`, reusing its storage.
  func changes(
    of line: Line, paths cache: StepLine.PathCache, into changes: inout [TraceChange]
  ) throws(StepLine.Failure) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine.changes(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]),
          paths: cache, stepEnd: line.stepEnd, into: &changes)
      }
    }
    try result.get()
  }

  /// Parses only the action of the line at `index` (in `lines`).
  func action(ofLineAt index: Int) throws(StepLine.Failure) -> TraceValue {
    let line = lines[index]
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine.action(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]))
      }
    }
    return try result.get()
  }

  /// Parses the whole line at `index` (in `lines`).
  func line(at index: Int) throws(StepLine.Failure) -> StepLine {
    let line = lines[index]
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(StepLine.Failure) in
        try StepLine(
          parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]),
          step: line.step)
      }
    }
    return try result.get()
  }

  func lineIndex(of step: Int) -> Int? {
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if lines[middle].step < step { low = middle + 1 } else { high = middle }
    }
    guard low < lines.count, lines[low].step == step else { return nil }
    return low
  }

  /// The index of the first line at or after `start` whose step is not below `step`
  /// (`lines.count` when there is none): the next line of a walk that goes up.
  func lineIndex(of step: Int, from start: Int) -> Int {
    var index = start
    while index < lines.count, lines[index].step < step { index += 1 }
    return index
  }

  /// The step of the line at `index`, or nil when the chunk has no such line.
  func step(ofLineAt index: Int) -> Int? {
    index >= 0 && index < lines.count ? lines[index].step : nil
  }

  private func lineRange(of step: Int) -> Line? {
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if lines[middle].step < step { low = middle + 1 } else { high = middle }
    }
    guard low < lines.count, lines[low].step == step else { return nil }
    return lines[low]
  }
}

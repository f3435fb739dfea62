import Foundation

/// A decompressed payload chunk with the byte range of each step's line, so one step's line
/// can be parsed without parsing the others.
struct DecodedChunk {
  struct Line {
    var step: Int
    var start: Int
    var end: Int
    /// Where the step number ends, from `start`: the comma before `"action"`.
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

  /// Splits the decompressed bytes into lines, checking each starts with its step number,
  /// that steps increase and lie within `firstStep…lastStep`.
  init(id: Int, firstStep: Int, lastStep: Int, bytes: [UInt8]) throws(Failure) {
    self.id = id
    self.lastStep = lastStep
    self.bytes = bytes
    var lines: [Line] = []
    // A line per step, and a line is at least `{"step":N,…}\n`: no reallocation on the way.
    lines.reserveCapacity(min(max(0, lastStep - firstStep) + 1, bytes.count / 12))
    var failure: Failure?
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var start = 0
      var previous = Int.min
      while start < buffer.count {
        // memchr: a byte loop over a 256 KiB chunk was most of a cold seek's time.
        let end =
          memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
          .map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? buffer.count
        guard end < buffer.count else {
          failure = Failure(reason: "the last line has no newline")
          return
        }
        let line = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        guard let peeked = StepLine.peekStepEnd(line) else {
          failure = Failure(reason: "a line does not start with {\"step\":N,")
          return
        }
        let step = peeked.step
        guard step > previous, step >= firstStep, step <= lastStep else {
          failure = Failure(reason: "line of step \(step) out of order or outside the chunk")
          return
        }
        previous = step
        lines.append(
          Line(step: step, start: start, end: end, stepEnd: peeked.comma, stateHash: nil))
        start = end + 1
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
        try StepLine(parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]))
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
        try StepLine(parsing: UnsafeRawBufferPointer(rebasing: buffer[line.start..<line.end]))
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

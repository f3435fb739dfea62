import TraceKit

/// Reads a trace's steps in order, grouped as the store reduced them: a batch is a step sent
/// from outside the reducers (the user, an effect, an observer, an inspector) and the steps of
/// the synchronous `.send`s that followed it. A step's `.send`s are all in its batch, so
/// replay can check them at the step that returned them.
///
/// ```swift
/// try RecordedBatches(reader: reader).forEach(from: 1) { batch in
///   print(batch.map(\.step))  // [1, 2, 3], then [4], …
///   return true
/// }
/// ```
struct RecordedBatches {
  let reader: TraceReader
  let actions = RecordedActions()

  /// What a step's index row holds for replay, and its line, not yet read into a
  /// `RecordedStep`. A struct, not a tuple: a tuple was copied and destroyed through the
  /// runtime's generic tuple witnesses. Not a `StepRow`: its changed paths are not used, and
  /// copying and destroying a whole row cost the reading thread about 250 instructions a step.
  struct Line {
    let entry: StepIndexEntry
    let actionPath: String
    let payload: TraceReader.StepPayload
  }

  /// The trace failed while a batch was being gathered: its lines so far come first, since a
  /// line among them that cannot be read is the earlier failure. Thrown and caught on the
  /// thread that reads, never sent elsewhere as an error.
  struct UnfinishedBatch: Error, @unchecked Sendable {
    var lines: [Line]
    var error: any Error
  }

  /// Calls `body` with each batch of steps `from…` in order; `body` returns false to stop.
  func forEach(from first: Int, _ body: ([RecordedStep]) throws -> Bool) throws {
    do {
      try forEachLines(from: first) { lines in try body(try read(lines)) }
    } catch let unfinished as UnfinishedBatch {
      _ = try read(unfinished.lines)
      throw unfinished.error
    }
  }

  /// The steps of a batch's lines, read with the reader's line cache.
  func read(_ lines: [Line]) throws -> [RecordedStep] {
    try actions.steps(lines)
  }

  /// `forEach` with each step's row and line, not yet read into a `RecordedStep`: the
  /// read-ahead hands them to the replay thread, which reads the lines there with a cache of
  /// its own. A failure of the trace while a batch is gathered is an `UnfinishedBatch`.
  /// `body` must not keep the array: it is emptied in place for the next batch.
  func forEachLines(from first: Int, _ body: ([Line]) throws -> Bool) throws {
    var batch: [Line] = []
    var stopped = false
    var bodyFailed = false
    do {
      try reader.forEachStepAction(from: first, to: .max) { entry, actionPath, payload in
        if startsBatch(entry), !batch.isEmpty {
          let more: Bool
          do {
            more = try body(batch)
          } catch {
            bodyFailed = true
            throw error
          }
          guard more else {
            stopped = true
            return false
          }
          // Emptied in place: `body` copied what it keeps, so no array is made per batch.
          batch.removeAll(keepingCapacity: true)
        }
        batch.append(Line(entry: entry, actionPath: actionPath, payload: payload))
        return true
      }
    } catch {
      guard !bodyFailed, !batch.isEmpty else { throw error }
      throw UnfinishedBatch(lines: batch, error: error)
    }
    if !stopped, !batch.isEmpty {
      _ = try body(batch)
    }
  }

  /// `forEachLines` in blocks, for the read-ahead: `body` gets the lines of whole batches one
  /// after another, gathered in one array, and where each batch ends in it, once they are at
  /// least `blockSize` lines, and what is left at the end; it returns false to stop. The
  /// batches are the ones `forEachLines` hands out, and a batch is whole, as there, once the
  /// next one starts. A failure of the trace hands the whole batches gathered so far to
  /// `body` first; then, when a batch was being gathered, it is an `UnfinishedBatch`.
  func forEachBlock(
    from first: Int, blockSize: Int, _ body: (_ lines: [Line], _ ends: [Int]) -> Bool
  ) throws {
    var lines: [Line] = []
    lines.reserveCapacity(blockSize + 1)
    var ends: [Int] = []
    // Where the batch being gathered starts in `lines`.
    var start = 0
    var stopped = false
    do {
      try reader.forEachStepAction(from: first, to: .max) { entry, actionPath, payload in
        if startsBatch(entry), lines.count > start {
          ends.append(lines.count)
          start = lines.count
          if start >= blockSize {
            // Handed over whole: new arrays for the next block.
            let more = body(lines, ends)
            lines = []
            lines.reserveCapacity(blockSize + 1)
            ends = []
            start = 0
            guard more else {
              stopped = true
              return false
            }
          }
        }
        lines.append(Line(entry: entry, actionPath: actionPath, payload: payload))
        return true
      }
    } catch {
      if start > 0, !body(Array(lines[..<start]), ends) { throw error }
      guard lines.count > start else { throw error }
      throw UnfinishedBatch(lines: Array(lines[start...]), error: error)
    }
    guard !stopped, !lines.isEmpty else { return }
    ends.append(lines.count)
    _ = body(lines, ends)
  }

  /// Whether the step begins a batch (what `forEachLines` and `forEachBlock` both cut at):
  /// any step but the initial state and a synchronous `.send`, which belongs to the batch of
  /// the step that returned it.
  private func startsBatch(_ entry: StepIndexEntry) -> Bool {
    switch entry.origin {
    case .initial, .send: false
    default: true
    }
  }
}

import Foundation
import TraceKit

/// Reads a trace's batches (`RecordedBatches`) on a thread of its own, with a reader of its
/// own, ahead of the replay thread: on two cores, the index rows, chunks and lines of the
/// next steps are read while the reducer runs the current ones. The replay thread keeps the
/// trace's first reader for what it looks up itself (a jump's state, a diverged state).
///
/// It is started before the replay thread installs its system-randomness filter, so the
/// reading thread does not inherit it (what SQLite reads is not the reducer's randomness).
///
/// ```swift
/// let ahead = try BatchReadAhead(path: "bug.rewind")
/// try ahead.forEach { batch in print(batch.map(\.step)); return true }  // [1, 2], [3], …
/// ahead.finish()
/// ```
final class BatchReadAhead: @unchecked Sendable {
  private typealias Line = RecordedBatches.Line

  private enum Block {
    /// Batches of lines, one after another in `lines`: batch `i` ends before `ends[i]`. One
    /// array a block, not one a batch (a counter's trace has a batch per step).
    case batches(lines: [Line], ends: [Int])
    /// The reading ended, on the trace's error or at the last step; `lines` are those of the
    /// batch it was gathering (read first: one of them may be the earlier failure).
    case end(ReplayError?, lines: [Line])
  }

  /// Steps per block: enough that handing a block over costs nothing per step.
  static let blockSize = 512

  private let path: String
  private let reader: TraceReader
  /// The reading thread's batches of lines.
  private let batches: RecordedBatches
  /// The replay thread's: the actions it decoded, the line cache it reads with, and the
  /// steps of the block it replays (emptied in place for the next).
  private let actions = RecordedActions()
  private let paths = TraceReader.PathCache()
  // The replay thread's alone, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var steps: [RecordedStep] = []
  private var ahead: ReadAhead<Block>!

  /// Opens the trace again and starts reading its steps after step 0.
  init(path: String) throws(ReplayError) {
    self.path = path
    do {
      reader = try TraceReader(path: path)
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
    batches = RecordedBatches(reader: reader)
    ahead = ReadAhead(name: "rewind-reading") { [self] ahead in read(into: ahead) }
  }

  /// Calls `body` with each batch in order until it returns false; then throws the error the
  /// reading stopped on, if it stopped on one before `body` did. A batch is the block's
  /// steps in place, valid only until `body` returns; `body` may move a step out while it
  /// checks it, and must move it back before `body` returns or throws.
  func forEach(_ body: (UnsafeMutableBufferPointer<RecordedStep>) throws(ReplayError) -> Bool)
    throws(ReplayError)
  {
    while let block = ahead.next() {
      switch block {
      case .batches(let lines, let ends):
        steps.removeAll(keepingCapacity: true)
        var start = 0
        for end in ends {
          // Each batch's lines read just before it is replayed: a line that cannot be read
          // fails after every step before it was checked.
          try read(lines[start..<end])
          let more = try steps.withUnsafeMutableBufferPointer { (all) throws(ReplayError) in
            try body(UnsafeMutableBufferPointer(rebasing: all[start..<end]))
          }
          guard more else { return }
          start = end
        }
      case .end(let error, let unfinished):
        steps.removeAll(keepingCapacity: true)
        try read(unfinished[...])
        if let error { throw error }
        return
      }
    }
  }

  /// Appends the steps of a batch's lines to `steps`, read on this (the replay) thread.
  private func read(_ batch: ArraySlice<Line>) throws(ReplayError) {
    do {
      try actions.append(batch, to: &steps, paths: paths)
    } catch let error as TraceError {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    } catch {
      throw ReplayError(.unreadableTrace("\(error)"), path: path)
    }
  }

  /// Stops the reading and waits until the reading thread is done.
  func finish() {
    ahead.finish()
  }

  private func read(into ahead: ReadAhead<Block>) {
    var open = true
    var failure: ReplayError?
    var unfinished: [Line] = []
    do {
      try batches.forEachBlock(from: 1, blockSize: Self.blockSize) { lines, ends in
        open = ahead.send(.batches(lines: lines, ends: ends))
        return open
      }
    } catch {
      var error = error
      if let gathering = error as? RecordedBatches.UnfinishedBatch {
        unfinished = gathering.lines
        error = gathering.error
      }
      failure = ReplayError(
        .unreadableTrace((error as? TraceError)?.description ?? "\(error)"), path: path)
    }
    if open { _ = ahead.send(.end(failure, lines: unfinished)) }
  }
}

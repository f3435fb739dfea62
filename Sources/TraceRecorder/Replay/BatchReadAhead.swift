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
  private enum Block {
    case batches([[RecordedStep]])
    /// The reading ended, on the trace's error or at the last step.
    case end(ReplayError?)
  }

  /// Steps per block: enough that handing a block over costs nothing per step.
  static let blockSize = 512

  private let path: String
  private let reader: TraceReader
  private var ahead: ReadAhead<Block>!

  /// Opens the trace again and starts reading its steps after step 0.
  init(path: String) throws(ReplayError) {
    self.path = path
    do {
      reader = try TraceReader(path: path)
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
    ahead = ReadAhead(name: "rewind-replay-read") { [self] ahead in read(into: ahead) }
  }

  /// Calls `body` with each batch in order until it returns false; then throws the error the
  /// reading stopped on, if it stopped on one before `body` did.
  func forEach(_ body: ([RecordedStep]) throws(ReplayError) -> Bool) throws(ReplayError) {
    while let block = ahead.next() {
      switch block {
      case .batches(let batches):
        for batch in batches {
          guard try body(batch) else { return }
        }
      case .end(let error):
        if let error { throw error }
        return
      }
    }
  }

  /// Stops the reading and waits until the reading thread is done.
  func finish() {
    ahead.finish()
  }

  private func read(into ahead: ReadAhead<Block>) {
    var pending: [[RecordedStep]] = []
    var pendingSteps = 0
    var open = true
    var failure: ReplayError?
    do {
      try RecordedBatches(reader: reader).forEach(from: 1) { batch in
        pending.append(batch)
        pendingSteps += batch.count
        if pendingSteps >= Self.blockSize {
          open = ahead.send(.batches(pending))
          pending.removeAll(keepingCapacity: true)
          pendingSteps = 0
        }
        return open
      }
    } catch let error as TraceError {
      failure = ReplayError(.unreadableTrace(error.description), path: path)
    } catch {
      failure = ReplayError(.unreadableTrace("\(error)"), path: path)
    }
    if open, !pending.isEmpty { open = ahead.send(.batches(pending)) }
    if open { _ = ahead.send(.end(failure)) }
  }
}

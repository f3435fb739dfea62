import Foundation
import TraceKit
import TraceValues

/// Reads the steps `inspector replay` checks on a second thread, ahead of the thread that
/// applies and hashes them: on two cores, the index rows, chunks, change lines and keyframes
/// of the next steps are read while the current ones are checked. Steps travel in blocks,
/// a few blocks ahead (`ReadAhead`), so memory stays flat over any trace.
///
/// The source belongs to the reading thread from `init` until `finish()` returns; after that
/// the caller may use it again (to rebuild a state for a report).
///
/// ```swift
/// let ahead = ReplayReadAhead(source: source, through: 1_000)
/// let end = ahead.forEach { item in print(item.step); return true }
/// ahead.finish()  // end is the reading's error, if it stopped on one
/// ```
final class ReplayReadAhead: @unchecked Sendable {
  /// One step as read. Most steps are a line of a trace file and nothing else, so an item is
  /// a few numbers and one reference (copied into and out of a block at every step); what
  /// few steps carry besides is in `rare`.
  struct Item {
    var step: Int
    var origin: StepOrigin
    /// The index's hash of the step's state.
    var stateHash: UInt64
    /// The step's line in a trace file, whose diff the checking thread parses (half the
    /// reading work otherwise, and the reading thread is the slower of the two); nil when
    /// `rare.base` says what the state is built from.
    var line: TraceReader.StepPayload?
    var rare: Rare?
  }

  /// What a step's state is built from when it is not the step's line.
  enum Base {
    /// The step's diff from the previous step's state (a source other than a file).
    case changes([TraceChange])
    /// A whole state: step 0, or the first step after a gap (rebuilt from a keyframe).
    case state(TraceValue)
    /// The step's line or state could not be read: the reading stopped here.
    case unreadable(InspectorError)
  }

  /// What a step carries besides its line, with the failures in the order the
  /// single-threaded loop met them: a base that could not be read, then (after the diff
  /// applied) a keyframe that could not.
  final class Rare: @unchecked Sendable {
    /// Nil when the item's `line` holds the step's diff.
    var base: Base?
    /// The step's keyframe (nil between keyframes).
    var keyframe: TraceValue?
    /// Set when the keyframe could not be read: the reading stopped here.
    var keyframeFailure: InspectorError?

    init(base: Base?) {
      self.base = base
    }
  }

  private enum Block {
    case items([Item])
    /// The reading ended, on the source's error or at the last step.
    case end(InspectorError?)
  }

  /// Steps per block: enough that handing a block over costs nothing per step.
  static let blockSize = 512

  private let source: any TraceSource
  private let last: Int
  private var ahead: ReadAhead<Block>!

  /// Starts reading steps `0...last` of `source` on a new thread.
  init(source: any TraceSource, through last: Int) {
    self.source = source
    self.last = last
    ahead = ReadAhead(name: "rewind-reading") { [self] ahead in read(into: ahead) }
  }

  /// Hands each step to `body` in order until it returns false; returns the error the reading
  /// stopped on, if it stopped on one before `body` did.
  func forEach(_ body: (Item) -> Bool) -> InspectorError? {
    while let block = ahead.next() {
      switch block {
      case .items(let items):
        for item in items {
          guard body(item) else { return nil }
        }
      case .end(let error):
        return error
      }
    }
    return nil
  }

  /// Stops the reading and waits until the reading thread is done with the source.
  func finish() {
    ahead.finish()
  }

  private func read(into ahead: ReadAhead<Block>) {
    var batch = Batch(source: source, ahead: ahead)
    do throws(InspectorError) {
      if let file = source as? TraceFileSource {
        // A file's rows without their action paths and changed paths, which replay does not
        // use (every column is still checked).
        try file.forEachStepLine(from: 0, to: last) { entry, line in
          batch.add(entry.step, entry.origin, entry.stateHash, line: line, content: nil)
        }
      } else {
        try source.forEachStepContent(from: 0, to: last) { entry, content in
          batch.add(
            entry.step, entry.origin, entry.stateHash, line: content.streamedLine,
            content: content)
        }
      }
    } catch {
      batch.end(error)
      return
    }
    batch.end(nil)
  }

  /// The items read and not yet handed over, sent a block at a time.
  private struct Batch {
    let source: any TraceSource
    let ahead: ReadAhead<Block>
    var pending: [Item] = []
    var lastStep = -1
    /// False once the checking thread stopped taking blocks.
    var open = true

    init(source: any TraceSource, ahead: ReadAhead<Block>) {
      self.source = source
      self.ahead = ahead
      pending.reserveCapacity(ReplayReadAhead.blockSize)
    }

    /// One step: its line, or (`content`, from a source other than a file) what it holds.
    /// False when the reading stops here.
    mutating func add(
      _ step: Int, _ origin: StepOrigin, _ stateHash: UInt64, line: TraceReader.StepPayload?,
      content: StepContent?
    ) -> Bool {
      var item = Item(step: step, origin: origin, stateHash: stateHash, line: nil, rare: nil)
      var readable = true
      do throws(InspectorError) {
        // After a gap (steps the recorder dropped) the writer stored a keyframe: start
        // again from it, since this step's diff is relative to a state never recorded.
        if step == 0 || step != lastStep + 1 {
          item.rare = Rare(base: .state(try source.state(at: step)))
        } else if let line {
          item.line = line
        } else if let content {
          item.rare = Rare(base: .changes(try content.changes()))
        }
      } catch {
        item.rare = Rare(base: .unreadable(error))
        readable = false
      }
      if readable, step > 0 {
        do throws(InspectorError) {
          if let keyframe = try source.keyframe(at: step) {
            let rare = item.rare ?? Rare(base: nil)
            rare.keyframe = keyframe
            item.rare = rare
          }
        } catch {
          let rare = item.rare ?? Rare(base: nil)
          rare.keyframeFailure = error
          item.rare = rare
          readable = false
        }
      }
      pending.append(item)
      lastStep = step
      if pending.count == ReplayReadAhead.blockSize || !readable {
        open = ahead.send(.items(pending))
        pending = []
        pending.reserveCapacity(ReplayReadAhead.blockSize)
      }
      return open && readable
    }

    /// Hands over what is left and the end: the source's error, or nil at the last step.
    mutating func end(_ error: InspectorError?) {
      if open, !pending.isEmpty { open = ahead.send(.items(pending)) }
      if open { _ = ahead.send(.end(error)) }
    }
  }
}

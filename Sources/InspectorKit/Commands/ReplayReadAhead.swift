import Foundation
import TraceKit
import TraceValues

/// Reads the steps `inspector replay` checks on a second thread, ahead of the thread that
/// applies and hashes them: on two cores, the index rows, chunks and keyframes of the next
/// steps are read while the current ones are checked. A chunk is handed over as it is stored,
/// neither decompressed nor split into lines: the checking thread decompresses and splits it
/// and finds each step's line (`TraceReader.LoadedChunk`), which balances the two threads. Steps travel in blocks, a
/// few blocks ahead (`ReadAhead`), so memory stays flat over any trace.
///
/// The source belongs to the reading thread from `init` until `finish()` returns; after that
/// the caller may use it again (to rebuild a state for a report).
///
/// ```swift
/// let ahead = ReplayReadAhead(source: source, through: 1_000)
/// let end = ahead.forEach { item, block in print(item.step); return true }
/// ahead.finish()  // end is the reading's error, if it stopped on one
/// ```
final class ReplayReadAhead: @unchecked Sendable {
  /// One step as read: a few numbers, copied into and out of a block at every step without a
  /// reference count. The step's line and what few steps carry besides are in its block.
  struct Item {
    var step: Int
    var origin: StepOrigin
    /// The index's hash of the step's state.
    var stateHash: UInt64
    /// The block's chunk that holds the step's line (-1: none, from a source other than a
    /// file). The checking thread decompresses and splits the chunk, finds the line and
    /// parses its diff (half the reading work otherwise, and the reading thread is the
    /// slower of the two).
    var chunk: Int32
    /// The block's `rares` entry of the step, or -1.
    var rare: Int32
    /// The block's `pathSets` entry of the step's index row (-1: none, from a source other
    /// than a file).
    var pathSet: Int32
  }

  /// A changed-path set the index names (`steps.changed`): its id, and its texts.
  struct PathSet {
    var id: Int64
    var texts: [String]
  }

  /// Steps handed over together, with the chunks their lines are in and what the few steps
  /// that carry more than a line carry.
  struct Block {
    var items: [Item] = []
    var chunks: [TraceReader.LoadedChunk] = []
    var rares: [Rare] = []
    var pathSets: [PathSet] = []
    /// The ids of `pathSets`, read at every step without a reference count.
    var pathSetIDs: [Int64] = []

    /// Parses the changes of `item`'s line into `changes` when its diff gives its state;
    /// false when there is no such line, or `rare` says what its state is built from. A step
    /// of a chunk has its line found even then: a step without a line, or a chunk that does
    /// not split, stops a replay at that step (before what `rare` holds), as it stops any
    /// reading of the file.
    func changes(
      of item: Item, cachingPathsIn paths: TraceReader.PathCache,
      into changes: inout [TraceChange]
    ) throws(TraceError) -> Bool {
      guard item.chunk >= 0 else { return false }
      let parse = item.rare < 0 || rares[Int(item.rare)].base == nil
      // Lent, not retained: the block holds its chunks while it is checked, and a retain and
      // release of the chunk cost about 40 instructions a step.
      let result = Unmanaged.passUnretained(chunks[Int(item.chunk)])
        ._withUnsafeGuaranteedRef { chunk in
          Result { () throws(TraceError) in
            try chunk.changes(
              of: item.step, parsing: parse, cachingPathsIn: paths, into: &changes)
          }
        }
      try result.get()
      return parse
    }

    /// What `item` carries besides its line.
    func rare(of item: Item) -> Rare? {
      item.rare < 0 ? nil : rares[Int(item.rare)]
    }
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
  struct Rare {
    /// Nil when the item's line holds the step's diff.
    var base: Base?
    /// The step's keyframe (nil between keyframes).
    var keyframe: TraceValue?
    /// Set when the keyframe could not be read: the reading stopped here.
    var keyframeFailure: InspectorError?
  }

  private enum Handed {
    case steps(Block)
    /// The reading ended, on the source's error or at the last step.
    case end(InspectorError?)
  }

  /// Steps per block: enough that handing a block over costs nothing per step.
  static let blockSize = 512

  private let source: any TraceSource
  private let last: Int
  private var ahead: ReadAhead<Handed>!

  /// Starts reading steps `0...last` of `source` on a new thread.
  init(source: any TraceSource, through last: Int) {
    self.source = source
    self.last = last
    ahead = ReadAhead(name: "rewind-reading") { [self] ahead in read(into: ahead) }
  }

  /// Hands each step and its block to `body` in order until it returns false; returns the
  /// error the reading stopped on, if it stopped on one before `body` did.
  func forEach(_ body: (Item, Block) -> Bool) -> InspectorError? {
    while let handed = ahead.next() {
      switch handed {
      case .steps(let block):
        for item in block.items {
          guard body(item, block) else { return nil }
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

  private func read(into ahead: ReadAhead<Handed>) {
    var batch = Batch(source: source, ahead: ahead)
    do throws(InspectorError) {
      if let file = source as? TraceFileSource {
        // A file's rows without their action paths and changed paths, which replay does not
        // use (every column is still checked).
        let summary = try file.summary()
        batch.keyframes = try file.keyframeLayout()
        // A closed trace's last step is its last row, and no row comes after it: reading it
        // to its end without an upper bound reads the same rows, and SQLite's program then
        // does not compare each row's step with the bound (about 110 instructions a row).
        let to = summary.isComplete && last == summary.stepCount ? Int.max : last
        var setError: InspectorError?
        try file.forEachStepLine(from: 0, to: to) { entry, chunk in
          if let chunk { batch.enter(chunk) }
          // Consecutive rows mostly name the same set: its texts are looked up once.
          if entry.changed != batch.lastPathSet?.id {
            do throws(InspectorError) {
              let texts = try file.changedPathSet(entry.changed, step: entry.step)
              batch.enter(PathSet(id: entry.changed, texts: texts))
            } catch {
              setError = error
              return false
            }
          }
          return batch.add(entry.step, entry.origin, entry.stateHash, hasLine: true, content: nil)
        }
        if let setError { throw setError }
      } else {
        // A source that streams a file's lines hands them split; each chunk once. Its rows
        // name no changed-path set of a file, so none is checked (`Item.pathSet` -1).
        var streamed: (split: TraceReader.StreamedChunk, chunk: TraceReader.LoadedChunk)?
        try source.forEachStepContent(from: 0, to: last) { entry, content in
          var chunk: TraceReader.LoadedChunk?
          if let line = content.streamedLine {
            if line.streamed !== streamed?.split {
              streamed = (line.streamed, TraceReader.LoadedChunk(line.streamed))
            }
            chunk = streamed?.chunk
          }
          if let chunk { batch.enter(chunk) }
          return batch.add(
            entry.step, entry.origin, entry.stateHash, hasLine: chunk != nil, content: content)
        }
      }
    } catch {
      batch.end(error)
      return
    }
    batch.end(nil)
  }

  /// The block being filled, sent when full.
  private struct Batch {
    let source: any TraceSource
    let ahead: ReadAhead<Handed>
    var block = Block()
    /// The chunk of the last line, and its place in `block.chunks` (-1: not there yet).
    var lastChunk: TraceReader.LoadedChunk?
    var lastChunkSlot: Int32 = -1
    /// The changed-path set of the last row, and its place in `block.pathSets` (-1: not
    /// there yet).
    var lastPathSet: PathSet?
    var lastPathSetSlot: Int32 = -1
    /// Where a trace file holds keyframes (what `TraceFileSource.keyframe(at:)` checks
    /// first), so other steps need not ask. Nil: ask at every step.
    var keyframes: KeyframeLayout?
    var lastStep = -1
    /// False once the checking thread stopped taking blocks.
    var open = true

    init(source: any TraceSource, ahead: ReadAhead<Handed>) {
      self.source = source
      self.ahead = ahead
      block.items.reserveCapacity(ReplayReadAhead.blockSize)
    }

    /// The chunk the next lines are in.
    mutating func enter(_ chunk: TraceReader.LoadedChunk) {
      if chunk !== lastChunk {
        lastChunk = chunk
        lastChunkSlot = -1
      }
    }

    /// The changed-path set the next rows name.
    mutating func enter(_ set: PathSet) {
      lastPathSet = set
      lastPathSetSlot = -1
    }

    /// One step: whether its line is in the chunk entered last, or (`content`, from a source
    /// other than a file) what it holds. False when the reading stops here. Inlined into the
    /// row's closure: a call at every row.
    @inline(__always)
    mutating func add(
      _ step: Int, _ origin: StepOrigin, _ stateHash: UInt64, hasLine: Bool,
      content: StepContent?
    ) -> Bool {
      // Most steps: the line that follows the last, between keyframes.
      if hasLine, step == lastStep + 1, step != 0, !mayHoldKeyframe(step) {
        block.items.append(
          Item(
            step: step, origin: origin, stateHash: stateHash, chunk: slot(), rare: -1,
            pathSet: pathSetSlot()))
        lastStep = step
        if block.items.count == ReplayReadAhead.blockSize { send() }
        return open
      }
      return addRare(step, origin, stateHash, hasLine: hasLine, content: content)
    }

    /// `add` for a step that starts from a whole state, may have a keyframe, or comes from a
    /// source other than a file.
    private mutating func addRare(
      _ step: Int, _ origin: StepOrigin, _ stateHash: UInt64, hasLine: Bool,
      content: StepContent?
    ) -> Bool {
      var rare: Rare?
      // Found even for a step whose state is built from a whole one: see `Block.changes`.
      let chunk = hasLine ? slot() : -1
      var readable = true
      do throws(InspectorError) {
        // After a gap (steps the recorder dropped) the writer stored a keyframe: start
        // again from it, since this step's diff is relative to a state never recorded.
        if step == 0 || step != lastStep + 1 {
          rare = Rare(base: .state(try source.state(at: step)))
        } else if !hasLine, let content {
          rare = Rare(base: .changes(try content.changes()))
        }
      } catch {
        rare = Rare(base: .unreadable(error))
        readable = false
      }
      if readable, step > 0, mayHoldKeyframe(step, startsAfterGap: step != lastStep + 1) {
        do throws(InspectorError) {
          if let keyframe = try source.keyframe(at: step) {
            rare = rare ?? Rare()
            rare?.keyframe = keyframe
          }
        } catch {
          rare = rare ?? Rare()
          rare?.keyframeFailure = error
          readable = false
        }
      }
      var rareIndex: Int32 = -1
      if let rare {
        block.rares.append(rare)
        rareIndex = Int32(block.rares.count - 1)
      }
      block.items.append(
        Item(
          step: step, origin: origin, stateHash: stateHash, chunk: chunk, rare: rareIndex,
          pathSet: pathSetSlot()))
      lastStep = step
      if block.items.count == ReplayReadAhead.blockSize || !readable { send() }
      return open && readable
    }

    /// The place of the chunk entered last in `block.chunks`, added there with its first
    /// line of the block.
    @inline(__always)
    private mutating func slot() -> Int32 {
      if lastChunkSlot < 0, let lastChunk {
        block.chunks.append(lastChunk)
        lastChunkSlot = Int32(block.chunks.count - 1)
      }
      return lastChunkSlot
    }

    /// The place of the set entered last in `block.pathSets`, added there with its first row
    /// of the block.
    @inline(__always)
    private mutating func pathSetSlot() -> Int32 {
      if lastPathSetSlot < 0, let lastPathSet {
        block.pathSets.append(lastPathSet)
        block.pathSetIDs.append(lastPathSet.id)
        lastPathSetSlot = Int32(block.pathSets.count - 1)
      }
      return lastPathSetSlot
    }

    private mutating func send() {
      open = ahead.send(.steps(block))
      block = Block()
      block.items.reserveCapacity(ReplayReadAhead.blockSize)
      lastChunkSlot = -1
      lastPathSetSlot = -1
    }

    /// `startsAfterGap`: the step's state is the keyframe stored after a gap, not one to
    /// check against it. Inlined: called at every row, it copied the whole batch (129 bytes)
    /// to be called.
    @inline(__always)
    private func mayHoldKeyframe(_ step: Int, startsAfterGap: Bool = false) -> Bool {
      guard let keyframes else { return true }
      return keyframes.isOnInterval(step) || !startsAfterGap && keyframes.isOffInterval(step)
    }

    /// Hands over what is left and the end: the source's error, or nil at the last step.
    mutating func end(_ error: InspectorError?) {
      if open, !block.items.isEmpty { open = ahead.send(.steps(block)) }
      if open { _ = ahead.send(.end(error)) }
    }
  }
}

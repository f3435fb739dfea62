import Foundation
import TraceKit

/// The `"steps"` array of `inspector export`: each step's index row, action and changes as
/// JSON (`JSONBytes.step`), handed to the output about 64 KiB at a time.
///
/// A trace file longer than two blocks is written by two threads: the command's thread
/// writes blocks 0, 2, 4, … with its source and a second thread blocks 1, 3, 5, … with a
/// second reader of the same file, and the command's thread hands the blocks to the output
/// in order. A block is kept only when it read without an error and holds exactly the steps
/// of its range; at the first block that does not (a damaged row, chunk or line, a hole in the
/// index, a recorded gap), the second thread is stopped and the rest is written by one
/// thread from the step after the last block kept. What is written, up to and including the
/// error that ends it, is byte for byte what one thread writes.
///
/// ```swift
/// var out = ""
/// let wroteAny = try ExportSteps.write(source, from: 0, to: 1_000_000, out: &out)
/// out  // \n{"step":1,…},\n{"step":2,…} … (the text between "steps":[ and ])
/// ```
enum ExportSteps {
  /// Steps per block of the two-thread path: about 2 MB of JSON for a counter's steps, so a
  /// block's hand-over and its second reading of the chunk it starts in (about 1,500 of a
  /// counter's steps) cost little per step.
  static let blockSize = 8_192

  /// Writes steps `from + 1 ... to`, each after a comma and a newline (the first without the
  /// comma). Returns whether any step was written; throws the error that ended the steps,
  /// after writing every step before it. `blockSize` and `parallel` are for tests.
  static func write(
    _ source: any TraceSource, from: Int, to: Int, blockSize: Int = blockSize,
    parallel: Bool = ProcessInfo.processInfo.activeProcessorCount > 1,
    out: inout some FlushingOutput
  ) throws(InspectorError) -> Bool {
    var next = from + 1
    if parallel, to - from > 2 * blockSize, let file = source as? TraceFileSource,
      let second = try? TraceFileSource(path: file.path)
    {
      next = writeBlocks(
        file, second, steps: from + 1...to, blockSize: blockSize, out: &out)
    }
    guard next <= to else { return next > from + 1 }
    return try writeInOrder(source, steps: next...to, first: next == from + 1, out: &out)
  }

  /// One thread's path: every step of `steps` in order, flushed every 64 KiB.
  private static func writeInOrder(
    _ source: any TraceSource, steps: ClosedRange<Int>, first: Bool,
    out: inout some FlushingOutput
  ) throws(InspectorError) -> Bool {
    var json = JSONBytes()
    var actions = WrittenActions()
    var first = first
    var wroteAny = !first
    do throws(InspectorError) {
      try source.forEachStepContent(from: steps.lowerBound, to: steps.upperBound) {
        entry, content throws(InspectorError) in
        try write(entry, content, first: first, into: &json, actions: &actions)
        first = false
        wroteAny = true
        if json.count >= 1 << 16 {
          json.write(to: &out)
          json.removeAll()
        }
        return true
      }
    } catch {
      json.write(to: &out)
      throw error
    }
    json.write(to: &out)
    return wroteAny
  }

  /// One step: a newline (after a comma unless `first`), then its JSON.
  private static func write(
    _ entry: StepRow, _ content: StepContent, first: Bool, into json: inout JSONBytes,
    actions: inout WrittenActions
  ) throws(InspectorError) {
    // A line the look-up cannot read is left to `action()`, whose error names the step.
    let known = content.withStoredActionJSON { actions.written(stored: $0) } ?? nil
    let actionJSON: [UInt8]
    if let known {
      actionJSON = known
    } else {
      actionJSON = JSONBytes.value(try content.action())
      _ = content.withStoredActionJSON {
        actions.insert(stored: $0, written: actionJSON)
      }
    }
    let changes = try content.changes()
    json.newline(first: first)
    json.step(entry, actionJSON: actionJSON, changes: changes)
  }

  /// A block of steps written whole, or not kept.
  struct Block {
    var json: JSONBytes
    /// False when the block is not kept: its reading failed, or its rows are not exactly
    /// the steps of its range.
    var complete: Bool
  }

  /// Writes `steps` as JSON into `json` (emptied first), each step after a comma and a
  /// newline (the first without the comma when `first`); returns whether the block is kept.
  static func fill(
    _ json: inout JSONBytes, _ source: any TraceSource, steps: ClosedRange<Int>, first: Bool,
    actions: inout WrittenActions
  ) -> Bool {
    json.removeAll()
    var expected = steps.lowerBound
    do throws(InspectorError) {
      try source.forEachStepContent(from: steps.lowerBound, to: steps.upperBound) {
        entry, content throws(InspectorError) in
        // A row that is not the next step: a hole or a gap, which one thread checks against
        // the step before the block as well.
        guard entry.step == expected else { return false }
        try write(
          entry, content, first: first && expected == steps.lowerBound, into: &json,
          actions: &actions)
        expected += 1
        return true
      }
    } catch {
      return false
    }
    return expected == steps.upperBound + 1
  }

  /// The two-thread path over `steps`, until a block is not kept; returns the first step not
  /// written.
  private static func writeBlocks(
    _ source: TraceFileSource, _ second: TraceFileSource, steps: ClosedRange<Int>,
    blockSize: Int, out: inout some FlushingOutput
  ) -> Int {
    let ranges = stride(from: steps.lowerBound, through: steps.upperBound, by: blockSize).map {
      $0...min($0 + blockSize - 1, steps.upperBound)
    }
    let odd = OddBlocks(source: second, ranges: ranges)
    defer { odd.finish() }
    var actions = WrittenActions()
    var own = JSONBytes()
    // Each thread's buffers are used again: a fresh one per block would fault in its pages.
    for (index, range) in ranges.enumerated() {
      if index.isMultiple(of: 2) {
        guard fill(&own, source, steps: range, first: index == 0, actions: &actions) else {
          return range.lowerBound
        }
        own.write(to: &out)
      } else {
        guard let block = odd.next(), block.complete else { return range.lowerBound }
        block.json.write(to: &out)
        odd.giveBack((consume block).json)
      }
    }
    return steps.upperBound + 1
  }

  /// The second thread: writes the blocks at odd places, each into bytes of its own, one or
  /// two ahead of the command's thread; stops after a block that is not kept.
  private final class OddBlocks: @unchecked Sendable {
    // `source` belongs to the thread from `init` until `finish()` returned.
    private let source: TraceFileSource
    private let ranges: [ClosedRange<Int>]
    private var ahead: ReadAhead<Block>!
    /// Buffers written out by the command's thread, for the next blocks. Guarded by `lock`.
    private var spare: [JSONBytes] = []
    private let lock = NSLock()

    init(source: TraceFileSource, ranges: [ClosedRange<Int>]) {
      self.source = source
      self.ranges = ranges
      ahead = ReadAhead(name: "rewind-export", capacity: 2) { [self] ahead in
        var actions = WrittenActions()
        for index in stride(from: 1, to: self.ranges.count, by: 2) {
          var json = lock.withLock { spare.popLast() } ?? JSONBytes()
          let complete = ExportSteps.fill(
            &json, self.source, steps: self.ranges[index], first: false, actions: &actions)
          guard ahead.send(Block(json: json, complete: complete)), complete else { return }
        }
      }
    }

    /// The next odd block, nil when the thread stopped before it.
    func next() -> Block? {
      ahead.next()
    }

    /// Gives a block's bytes back once they are written out.
    func giveBack(_ json: JSONBytes) {
      lock.withLock { spare.append(json) }
    }

    func finish() {
      ahead.finish()
    }
  }
}

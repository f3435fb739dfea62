import ComposableCore
import Foundation
import Locking
import Synchronization
import TraceKit

/// The second stage of a recording's writer: a thread of its own (`rewind-writer-2`) that owns
/// the `TraceWriter` and makes its calls (SQLite inserts, LZ4 of the lines and keyframes,
/// commits), while the first stage (`StepWriter`, thread `rewind-writer`) encodes, diffs and
/// hashes the next steps. The two run on two cores at once. This stage also finishes what the
/// first hands over unfinished: each step's changed-path texts and each started effect's
/// record.
///
/// Operations cross in batches, one per batch the first stage took from the capture queue,
/// through a `CaptureQueue` of one batch: no lock and no allocation per step (emptied batches
/// come back through `spares`). The first stage waits when the trace stage is a batch behind,
/// so the capture queue's overflow policy is what the app sees, as with one thread.
///
/// ```swift
/// let stage = try TraceStage(
///   path: path, opening: { try TraceWriter(path: path, …) }, opened: { try $0.writeTree(tree) },
///   dependencyKeyLog: { log }, report: { session.fail($0) })
/// stage.hand(&batch)   // batch is empty again, ready for the next operations
/// stage.finish(&batch) // returns once every operation is made and the thread is gone
/// ```
final class TraceStage: @unchecked Sendable {
  private let path: String
  private let handOff = CaptureQueue<[TraceOperation]>(capacity: 1)
  /// Emptied batches the trace stage gave back, for the first stage's next ones.
  private let spares = Lock<[[TraceOperation]]>([])
  private let failed = Atomic<Bool>(false)
  private let closeAttempted = Atomic<Bool>(false)
  private let report: @Sendable (RecorderError) -> Void
  /// The session's log of dependency keys (set once a store is attached).
  private let dependencyKeyLog: @Sendable () -> DependencyKeyLog?
  private var thread: WriterThread?

  // The trace stage's thread alone uses these once it started.
  @exclusivity(unchecked) private var trace: TraceWriter?
  /// How the trace is created and its start completed, until the thread did it.
  @exclusivity(unchecked) private var opening:
    (
      create: () throws(TraceError) -> TraceWriter,
      complete: (TraceWriter) throws(TraceError) -> Void
    )?
  @exclusivity(unchecked) private var dependencyKeys = WrittenDependencyKeys()
  @exclusivity(unchecked) private var effectRecords = EffectRecords()

  /// Starts the stage's thread, which first creates the trace (`opening`: the file, with step 0
  /// committed) and completes its start (`opened`: the reducer tree, the type table), then
  /// makes the operations handed over. A failure of either is reported as a later write's is:
  /// at the trace's last commit (none when the file could not be created).
  init(
    path: String, opening: @escaping () throws(TraceError) -> TraceWriter,
    opened: @escaping (TraceWriter) throws(TraceError) -> Void,
    dependencyKeyLog: @escaping @Sendable () -> DependencyKeyLog?,
    report: @escaping @Sendable (RecorderError) -> Void
  ) throws(WriterThread.StartError) {
    self.opening = (opening, opened)
    self.path = path
    self.dependencyKeyLog = dependencyKeyLog
    self.report = report
    thread = try WriterThread(name: "rewind-writer-2") { [self] in run() }
  }

  /// Whether a write failed (the failure was reported; later operations are ignored).
  var hasFailed: Bool { failed.load(ordering: .relaxed) }

  /// Whether `close` was made on a trace that had not failed before it.
  var didAttemptClose: Bool { closeAttempted.load(ordering: .acquiring) }

  /// Hands the operations over (waiting while the stage is a batch behind) and leaves `batch`
  /// empty, with room for the next ones. The first stage alone calls it.
  func hand(_ batch: inout [TraceOperation]) {
    guard !batch.isEmpty else { return }
    var next = spares.withLock { spares in spares.popLast() } ?? []
    swap(&next, &batch)
    // With the handed batch's room at least: a new batch (none given back yet) regrew by
    // doubling as the first stage appended, moving its operations each time.
    if batch.capacity < next.capacity { batch.reserveCapacity(next.capacity) }
    // Moved, not copied: while this thread held a second reference, the trace stage's first
    // change to the batch copied all its operations.
    handOff.append(consume next, whenFull: .block)
  }

  /// Hands `batch` over with the last operation, and waits until the stage made them all
  /// and its thread ended.
  func finish(_ batch: inout [TraceOperation]) {
    batch.append(.end)
    hand(&batch)
    thread?.join()
  }

  private func run() {
    if let (create, complete) = opening {
      opening = nil
      do throws(TraceError) {
        let created = try create()
        trace = created
        try complete(created)
      } catch {
        fail(error.description)
      }
    }
    while true {
      var batches = handOff.take(timeout: .seconds(1))
      for index in batches.indices {
        var batch: [TraceOperation] = []
        swap(&batch, &batches[index])
        for position in batch.indices {
          // Moved out of the batch, so the step's keyframe bytes have one owner and the
          // writer appends its newline in place.
          var operation = TraceOperation.end
          swap(&operation, &batch[position])
          guard case .end = operation else {
            perform(consume operation)
            continue
          }
          // Nothing follows `.end`: the trace is closed, or dropped as it is after a failure.
          trace = nil
          return
        }
        batch.removeAll(keepingCapacity: true)
        spares.withLock { [batch] in $0.append(batch) }
      }
      batches.removeAll(keepingCapacity: true)
      handOff.recycle(batches)
    }
  }

  private func perform(_ operation: consuming TraceOperation) {
    guard let trace, !failed.load(ordering: .relaxed) else { return }
    do throws(TraceError) {
      switch consume operation {
      case .step(var record, let paths, let keyframe, let types, let sender):
        if !paths.isEmpty { record.changedPaths = trace.changedPathTexts(paths) }
        if let types { try trace.setSwiftTypes(types) }
        try dependencyKeys.write(dependencyKeyLog(), to: trace)
        try trace.append(record, keyframeJSON: keyframe)
        // The core told which effect sent this step's action: the effect's record lists it.
        if let sender { try trace.effectSent(id: sender, step: record.step) }
      case .effectStarted(let effect):
        try trace.effectStarted(effectRecords.record(of: effect))
      case .effectEnded(let id, let endNanos, let outcome, let afterStep):
        try trace.effectEnded(
          id: id, endNanos: endNanos, outcome: outcome, endedAfterStep: afterStep)
      case .flush:
        try trace.flush()
      case .close(let gap, let unmatched):
        closeAttempted.store(true, ordering: .releasing)
        if let gap { try trace.appendGap(afterStep: gap.afterStep, dropped: gap.dropped) }
        if let unmatched { try trace.setExtra(RecorderMetadata.unmatchedRedactionKey, unmatched) }
        try dependencyKeys.write(dependencyKeyLog(), to: trace)
        try trace.close()
        self.trace = nil
      case .abandon(let message):
        fail(message)
      case .end:
        break
      }
    } catch {
      fail(error.description)
    }
  }

  private func fail(_ message: String) {
    failed.store(true, ordering: .releasing)
    // What the file holds is what was committed, whichever write failed (a step's, or the
    // timed commit's, which has no step of its own).
    let committed = trace.map { $0.committedStep >= 0 ? $0.committedStep : nil } ?? nil
    trace = nil
    report(RecorderError(path: path, lastCommittedStep: committed, message: message))
  }
}

import Foundation
import TraceKit

/// A `.rewind` file as the inspector reads it: `TraceReader` behind the `TraceSource`
/// protocol, its errors turned into one-line `InspectorError`s that say what and where.
///
/// ```swift
/// let source = try TraceFileSource(path: "bug.rewind")
/// try source.summary().stepCount  // 1_000_000
/// ```
package final class TraceFileSource: TraceSource {
  package let path: String
  private let reader: TraceReader
  private var cachedSummary: TraceSummary?
  /// Where the file holds keyframes (`keyframe(at:)` is asked at every step of a replay).
  private var cachedKeyframeLayout: KeyframeLayout?

  package init(path: String) throws(InspectorError) {
    self.path = path
    do {
      reader = try TraceReader(path: path)
    } catch {
      throw Self.inspectorError(error)
    }
  }

  package func summary() throws(InspectorError) -> TraceSummary {
    if let cachedSummary { return cachedSummary }
    let info = try read { () throws(TraceError) in try reader.info() }
    let summary = TraceSummary(
      formatVersion: info.formatVersion, rootReducer: info.metadata.rootReducer,
      stateType: info.metadata.stateType, actionType: info.metadata.actionType,
      keyframeInterval: info.metadata.keyframeInterval, extra: info.metadata.extra,
      stepCount: info.stepCount, effectCount: info.effectCount,
      gaps: info.gaps,
      firstWallTime: info.firstWallTime, lastWallTime: info.lastWallTime,
      fileSize: info.fileSize, payloadCompressedBytes: info.payloadBytes,
      payloadUncompressedBytes: info.payloadRawBytes, isComplete: info.isComplete,
      isWriterGone: info.isWriterGone)
    cachedSummary = summary
    return summary
  }

  package func forEachStep(
    from: Int, to: Int, _ body: (StepRow) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    // The reader's streaming call takes an untyped closure: carry our own error through it.
    var bodyError: InspectorError?
    do {
      try reader.forEachRow(from: from, to: to) { row in
        do throws(InspectorError) {
          return try body(row)
        } catch {
          bodyError = error
          return false
        }
      }
    } catch let error as TraceError {
      throw Self.inspectorError(error)
    } catch {
      throw .input("\(error)", where: path)
    }
    if let bodyError { throw bodyError }
  }

  package func forEachStepContent(
    from: Int, to: Int, _ body: (StepRow, StepContent) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    var bodyError: InspectorError?
    do {
      try reader.forEachStep(from: from, to: to) { row, payload in
        do throws(InspectorError) {
          return try body(row, StepContent(storage: .file(payload)))
        } catch {
          bodyError = error
          return false
        }
      }
    } catch let error as TraceError {
      throw Self.inspectorError(error)
    } catch {
      throw .input("\(error)", where: path)
    }
    if let bodyError { throw bodyError }
  }

  /// The steps `from…to` as a replay reads them (`TraceReader.forEachStepLine`): each row
  /// checked whole, handed out as its step, origin and state hash with the chunk of its line
  /// when it is not the previous row's (`payload(of:)` finds the line, and throws what a
  /// reading throws at that step).
  package func forEachStepLine(
    from: Int, to: Int, _ body: (StepIndexEntry, TraceReader.LoadedChunk?) -> Bool
  ) throws(InspectorError) {
    try read { () throws(TraceError) in try reader.forEachStepLine(from: from, to: to, body) }
  }

  /// The texts of the changed-path set a `StepIndexEntry` names (`entry.changed`).
  package func changedPathSet(_ id: Int64, step: Int) throws(InspectorError) -> [String] {
    try read { () throws(TraceError) in try reader.changedPathSet(id, step: step) }
  }

  package func action(at step: Int) throws(InspectorError) -> TraceValue {
    try read { () throws(TraceError) in try reader.action(at: step) }
  }

  package func changes(at step: Int) throws(InspectorError) -> [TraceChange] {
    try read { () throws(TraceError) in try reader.changes(at: step) }
  }

  package func dependencies(at step: Int) throws(InspectorError) -> [DependencyRead] {
    try read { () throws(TraceError) in try reader.dependencies(at: step) }
  }

  package func swiftTypes() throws(InspectorError) -> SwiftTypeTable? {
    try read { () throws(TraceError) in try reader.swiftTypes() }
  }

  package func dependencyKeys() throws(InspectorError) -> [DependencyKeyRecord]? {
    try read { () throws(TraceError) in try reader.dependencyKeys() }
  }

  package func state(at step: Int) throws(InspectorError) -> TraceValue {
    return try read { () throws(TraceError) in try reader.state(at: step) }
  }

  /// Where the file holds keyframes, read once.
  package func keyframeLayout() throws(InspectorError) -> KeyframeLayout {
    if let cachedKeyframeLayout { return cachedKeyframeLayout }
    let interval = try summary().keyframeInterval
    let steps = try read { () throws(TraceError) in try reader.keyframeSteps() }
    let layout = KeyframeLayout(interval: interval, steps: steps)
    cachedKeyframeLayout = layout
    return layout
  }

  package func keyframe(at step: Int) throws(InspectorError) -> TraceValue? {
    // Asked at every step of a replay: the layout, not the summary (a copy of it retains its
    // strings and arrays).
    guard try keyframeLayout().mayHold(step) else { return nil }
    do {
      return try reader.keyframe(at: step)
    } catch {
      if case .hashMismatch = error.kind {
        // For replay a keyframe that fails its hash is a failed check, not unreadable input.
        throw InspectorError(
          .checkFailed, "replay check failed: keyframe does not match its hash",
          where: "\(path), step \(step)")
      }
      throw Self.inspectorError(error)
    }
  }

  package func effects() throws(InspectorError) -> [EffectRecord] {
    try read { () throws(TraceError) in try reader.effects() }
  }

  package func effectStream(startedFrom from: Int, through to: Int) throws(InspectorError)
    -> any EffectStream
  {
    let cursor = try read { () throws(TraceError) in
      try reader.effectCursor(startedFrom: from, through: to)
    }
    return Cursor(cursor)
  }

  /// The reader's effect cursor as an `EffectStream`.
  private final class Cursor: EffectStream {
    let cursor: EffectCursor

    init(_ cursor: EffectCursor) {
      self.cursor = cursor
    }

    func next() throws(InspectorError) -> EffectRecord? {
      do {
        return try cursor.next()
      } catch {
        throw TraceFileSource.inspectorError(error)
      }
    }
  }

  package func tree() throws(InspectorError) -> ReducerTreeNode? {
    try read { () throws(TraceError) in try reader.tree() }
  }

  package func refresh() throws(InspectorError) {
    reader.refresh()
    cachedSummary = nil
  }

  package func rows(
    matching filter: StepFilter, limit: Int, descending: Bool
  ) throws(InspectorError) -> [StepRow] {
    try read { () throws(TraceError) in
      try reader.rows(matching: filter, limit: limit, descending: descending)
    }
  }

  package func count(matching filter: StepFilter) throws(InspectorError) -> Int {
    try read { () throws(TraceError) in try reader.count(matching: filter) }
  }

  package func actionPaths() throws(InspectorError) -> [String] {
    try read { () throws(TraceError) in try reader.actionPaths() }
  }

  package func actionCounts(from: Int, to: Int) throws(InspectorError) -> [String: Int] {
    try read { () throws(TraceError) in try reader.actionCounts(from: from, to: to) }
  }

  package func effects(startedBy step: Int) throws(InspectorError) -> [EffectRecord] {
    try read { () throws(TraceError) in try reader.effects(startedBy: step) }
  }

  package func effect(id: UUID) throws(InspectorError) -> EffectRecord? {
    try read { () throws(TraceError) in try reader.effect(id: id) }
  }

  /// Closed when the trace says so; gone when its writer's lock on the file is free (what
  /// `info` says); otherwise whether another process holds SQLite's lock on the trace's
  /// shared memory (every connection to a WAL database holds it while open), for a trace
  /// whose writer took no lock (version 1).
  package func writerState() -> WriterState {
    let summary = try? summary()
    if summary?.isComplete == true { return .closed }
    if summary?.isWriterGone == true { return .gone }
    switch WriterProbe.othersHoldSharedMemory(of: path) {
    case true?: return .writing
    case false?: return .gone
    case nil: return .unknown
    }
  }

  private func read<T>(_ body: () throws(TraceError) -> T) throws(InspectorError) -> T {
    do {
      return try body()
    } catch {
      throw Self.inspectorError(error)
    }
  }

  /// `TraceError`'s description is already "file: [step N: ]what"; the inspector's line is
  /// "what (file, step N)".
  static func inspectorError(_ error: TraceError) -> InspectorError {
    var location = error.file
    if let step = error.step { location += ", step \(step)" }
    if let chunk = error.chunk { location += ", chunk \(chunk)" }
    var what = error.description
    let prefix = error.file + ": "
    if what.hasPrefix(prefix) { what.removeFirst(prefix.count) }
    for marker in [
      "step \(error.step ?? -1) (chunk \(error.chunk ?? -1)): ",
      "step \(error.step ?? -1): ", "chunk \(error.chunk ?? -1): ",
    ]
    where what.hasPrefix(marker) {
      what.removeFirst(marker.count)
    }
    var converted = InspectorError.input(what, where: location)
    converted.cause = error.kind
    return converted
  }
}

/// Where a trace file holds keyframes: at the multiples of its interval, and at the few other
/// steps it has a row for (after gaps, or a row the writer did not write, which
/// `TraceReader.state(at:)` would start from all the same).
package struct KeyframeLayout: Sendable {
  package let interval: Int
  /// The steps off the interval that hold a keyframe.
  package let offInterval: Set<Int>

  /// The layout of a file with keyframe interval `interval` and keyframes at `steps`.
  package init(interval: Int, steps: [Int]) {
    self.interval = interval
    offInterval = Set(steps.filter { interval <= 0 || $0 % interval != 0 })
  }

  /// Whether `step` is a multiple of the interval.
  @inline(__always)
  package func isOnInterval(_ step: Int) -> Bool {
    interval > 0 && step % interval == 0
  }

  /// Whether the file holds a keyframe at `step`, off the interval.
  @inline(__always)
  package func isOffInterval(_ step: Int) -> Bool {
    !offInterval.isEmpty && offInterval.contains(step)
  }

  /// Whether the file may hold a keyframe at `step`.
  package func mayHold(_ step: Int) -> Bool {
    isOnInterval(step) || isOffInterval(step)
  }
}

import ComposableCore
import Foundation
import TraceKit

/// A trace opened for typed replay: its reader, its recorded effects, its redaction, its
/// initial state, and its steps in batches. Every read failure becomes a `ReplayError`.
///
/// A reader belongs to one thread at a time: the trace is opened on the caller's thread and
/// read on the replay thread while the caller waits.
///
/// ```swift
/// let trace = try ReplayTrace(path: "bug.rewind")
/// try trace.forEachBatch { batch in print(batch.map(\.step)); return true }
/// ```
@usableFromInline
final class ReplayTrace: @unchecked Sendable {
  @usableFromInline let path: String
  let reader: TraceReader
  let info: TraceInfo
  let effects: RecordedEffects
  @usableFromInline let redaction: Redaction
  @usableFromInline let initialState: TraceValue

  init(path: String) throws(ReplayError) {
    self.path = path
    do {
      reader = try TraceReader(path: path)
      info = try reader.info()
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
    guard info.formatVersion >= 2 else {
      throw ReplayError(.formatVersion(info.formatVersion), path: path)
    }
    if let gap = info.gaps.first {
      throw ReplayError(.gap(afterStep: gap.afterStep, dropped: gap.dropped), path: path)
    }
    redaction = Redaction(
      validated: RecorderMetadata.paths(
        info.metadata.extra, key: RecorderMetadata.redactedStateKey))
    let reader = self.reader
    effects = RecordedEffects(
      try Self.read(path) { () throws(TraceError) in try reader.effects() })
    initialState = try Self.read(path) { () throws(TraceError) in try reader.state(at: 0) }
    guard effects.isComplete else {
      throw ReplayError(.effectsUnrecorded, path: path)
    }
  }

  /// The state the trace holds after `step`.
  @usableFromInline
  func state(at step: Int) throws(ReplayError) -> TraceValue {
    try Self.read(path) { () throws(TraceError) in try reader.state(at: step) }
  }

  /// Calls `body` with each batch of steps after step 0, in order, until it returns false.
  func forEachBatch(_ body: ([RecordedStep]) throws(ReplayError) -> Bool) throws(ReplayError) {
    do {
      try RecordedBatches(reader: reader).forEach(from: 1) { batch in try body(batch) }
    } catch let error as ReplayError {
      throw error
    } catch let error as TraceError {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    } catch {
      throw ReplayError(.unreadableTrace("\(error)"), path: path)
    }
  }

  /// Runs `body` with the caller's dependencies, the trace's values served in place of
  /// `uuid`, `date`, `withRandomNumberGenerator` and `continuousClock`, and every read the
  /// reducer makes told to the check.
  static func withReplayContext<R>(
    _ dependencies: DependencyValues,
    _ body: (ServedDependencies, DependencyCheck) throws(ReplayError) -> R
  ) throws(ReplayError) -> R {
    let served = ServedDependencies()
    let check = DependencyCheck()
    var values = dependencies
    served.install(into: &values)
    let result = DependencyValues.$current.withValue(values) {
      ReducingContext.listening(to: check) {
        Result { () throws(ReplayError) in try body(served, check) }
      }
    }
    return try result.get()
  }

  private static func read<T>(_ path: String, _ body: () throws(TraceError) -> T)
    throws(ReplayError) -> T
  {
    do {
      return try body()
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
  }
}

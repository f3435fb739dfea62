import Foundation
import LiveAttach
import TraceKit

/// Writes what a live app sends into a trace file, as the app's own recorder would have:
/// step 0, the history (after a gap when the app no longer holds its first steps), then each
/// step, its effects and their endings. `inspector dump` and `inspector open --attach` use it.
///
/// ```swift
/// let mirror = LiveTraceMirror(path: "session.rewind")
/// while let message = try client.receive(timeout: nil) { try mirror.apply(message) }
/// try mirror.close()
/// ```
final class LiveTraceMirror {
  let path: String
  private var writer: TraceWriter?
  /// The state after the last step written: the trace stores it at keyframes.
  private var state: TraceValue = .null
  /// The first step written after step 0, and the last.
  private(set) var firstStep: Int?
  private(set) var lastStep = 0

  init(path: String) {
    self.path = path
  }

  /// Writes one message (messages that say nothing about the trace are ignored).
  func apply(_ message: LiveMessage) throws(InspectorError) {
    do {
      switch message {
      case .start(let start):
        let writer = try TraceWriter(
          path: path, metadata: start.metadata, initialState: start.initialState,
          wallTime: start.wallTime)
        try writer.writeTree(start.tree)
        self.writer = writer
        state = start.initialState
      case .keyframe(let record, let state):
        self.state = state
        try append(record)
      case .step(let record):
        do {
          try TraceDiff.apply(record.changes, to: &state)
        } catch {
          throw InspectorError.input(
            "the app sent a step that does not apply: \(error)", where: "step \(record.step)")
        }
        try append(record)
      case .effectStarted(let effect):
        try writer?.effectStarted(effect)
      case .effectSent(let id, let step):
        try writer?.effectSent(id: id, step: step)
      case .effectEnded(let id, let nanos, let outcome, let afterStep):
        try writer?.effectEnded(
          id: id, endNanos: nanos, outcome: outcome, endedAfterStep: afterStep)
      case .gap(let after, let dropped, _):
        try writer?.appendGap(afterStep: after, dropped: dropped)
      default:
        break
      }
    } catch let error as InspectorError {
      throw error
    } catch {
      throw .input("cannot write the trace: \(error)", where: path)
    }
  }

  private func append(_ record: StepRecord) throws {
    guard let writer else { return }
    try writer.append(record, state: state)
    if firstStep == nil { firstStep = record.step }
    lastStep = record.step
  }

  /// Commits what was written, so a reader sees it.
  func flush() throws(InspectorError) {
    do {
      try writer?.flush()
    } catch {
      throw .input("cannot write the trace: \(error)", where: path)
    }
  }

  /// Closes the trace (complete).
  func close() throws(InspectorError) {
    do {
      try writer?.close()
      writer = nil
    } catch {
      throw .input("cannot write the trace: \(error)", where: path)
    }
  }

  /// Whether the app's start was received (there is a trace file).
  var hasStarted: Bool { writer != nil || firstStep != nil }
}

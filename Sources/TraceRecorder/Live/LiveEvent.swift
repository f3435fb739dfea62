import Foundation
import LiveAttach
import TraceKit

/// One thing the history holds after a segment's base, in the order the writer handled it.
///
/// ```swift
/// LiveEvent.step(record).message   // .step(record): what a watching inspector receives
/// ```
enum LiveEvent: Sendable {
  case step(StepRecord)
  case effectStarted(EffectRecord)
  case effectSent(id: UUID, step: Int)
  case effectEnded(id: UUID, endNanos: UInt64, outcome: EffectOutcome, afterStep: Int?)
  /// Steps the recorder dropped (its overflow policy).
  case gap(afterStep: Int, dropped: Int)

  var message: LiveMessage {
    switch self {
    case .step(let record): .step(record)
    case .effectStarted(let effect): .effectStarted(effect)
    case .effectSent(let id, let step): .effectSent(id: id, step: step)
    case .effectEnded(let id, let nanos, let outcome, let afterStep):
      .effectEnded(id: id, endNanos: nanos, outcome: outcome, afterStep: afterStep)
    case .gap(let after, let dropped): .gap(afterStep: after, dropped: dropped, reason: .recorder)
    }
  }

  /// About how many bytes the event keeps alive (for the history's megabyte limit).
  var estimatedBytes: Int {
    switch self {
    case .step(let record):
      var bytes = 96 + record.actionPath.utf8.count + record.action.estimatedBytes
      for change in record.changes {
        switch change {
        case .set(let path, let value), .insert(let path, let value):
          bytes += 32 + path.components.count * 16 + value.estimatedBytes
        case .remove(let path):
          bytes += 32 + path.components.count * 16
        }
      }
      for path in record.changedPaths { bytes += 16 + path.utf8.count }
      for read in record.dependencies { bytes += 32 + read.value.estimatedBytes }
      return bytes
    case .effectStarted(let effect):
      return 128 + (effect.cancelID?.utf8.count ?? 0) + (effect.file?.utf8.count ?? 0)
    case .effectSent, .effectEnded, .gap:
      return 48
    }
  }
}

extension TraceValue {
  /// About how many bytes the value takes in memory: enough to bound a history, not exact.
  var estimatedBytes: Int {
    switch self {
    case .null, .bool, .int, .uint, .double: 9
    case .string(let text): 16 + text.utf8.count
    case .bytes(let bytes): 16 + bytes.count
    case .array(let elements): elements.reduce(32) { $0 + $1.estimatedBytes }
    case .object(let fields), .enumCase(_, let fields):
      fields.reduce(32) { $0 + 16 + $1.key.utf8.count + $1.value.estimatedBytes }
    case .reflected(let type, let inner): 16 + type.utf8.count + inner.estimatedBytes
    }
  }
}

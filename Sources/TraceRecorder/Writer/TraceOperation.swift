import Foundation
import TraceKit

/// One call the writer's first stage hands to the trace stage (`TraceStage`), which makes it on
/// the `TraceWriter` in the order it was handed over.
///
/// ```swift
/// batch.append(.flush)   // the trace stage commits everything before it
/// ```
enum TraceOperation: Sendable {
  /// A step, with its keyframe's JSON when the step is a keyframe (`TraceWriter.isKeyframe`),
  /// the Swift type table when it changed, and the effect that sent its action. The trace
  /// stage makes the record's `changedPaths` from `changedPaths` (`TraceWriter.changedPathTexts`)
  /// when the first stage did not (it does when live attach keeps the record, and then hands
  /// no paths).
  case step(
    StepRecord, changedPaths: [TracePath], keyframe: [UInt8]?, types: SwiftTypeTable?,
    sender: UUID?)
  /// An effect started, as captured: the trace stage makes its record (`EffectRecords`).
  case effectStarted(CapturedEffect)
  case effectEnded(id: UUID, endNanos: UInt64, outcome: EffectOutcome, afterStep: Int?)
  /// Commits everything before it.
  case flush
  /// Records the trailing gap and the unmatched redaction paths, then closes the trace.
  case close(trailingGap: (afterStep: Int, dropped: Int)?, unmatchedRedactions: String?)
  /// The first stage failed: the trace keeps what it committed, and the failure is reported
  /// with that step.
  case abandon(message: String)
  /// The last operation: the trace stage's thread returns after it.
  case end
}

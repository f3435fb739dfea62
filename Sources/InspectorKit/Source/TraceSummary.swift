import TraceKit

/// The numbers `info` shows, from the trace's header and index.
package struct TraceSummary: Sendable, Equatable {
  package var formatVersion: Int
  package var rootReducer: String
  package var stateType: String
  package var actionType: String
  package var keyframeInterval: Int
  package var extra: [String: String]
  /// The last step number (step 0 is the initial state).
  package var stepCount: Int
  package var effectCount: Int
  package var gaps: [TraceGap]
  package var firstWallTime: Double?
  package var lastWallTime: Double?
  package var fileSize: Int
  package var payloadCompressedBytes: Int
  package var payloadUncompressedBytes: Int
  /// Whether the writer closed the trace (it is not being written any more).
  package var isComplete: Bool
  /// Whether the trace is not complete and its writer is gone (it will never grow).
  package var isWriterGone: Bool

  /// Steps the recorder dropped, in total.
  package var droppedSteps: Int { gaps.reduce(0) { $0 + $1.dropped } }
  /// Actions the store reduced, dropped ones included (a gap may follow the last step).
  package var sentSteps: Int { gaps.reduce(stepCount) { max($0, $1.afterStep + $1.dropped) } }
  /// Actions the trace holds.
  package var recordedSteps: Int { sentSteps - droppedSteps }

  package init(
    formatVersion: Int, rootReducer: String, stateType: String, actionType: String,
    keyframeInterval: Int, extra: [String: String] = [:], stepCount: Int, effectCount: Int,
    gaps: [TraceGap] = [], firstWallTime: Double?, lastWallTime: Double?, fileSize: Int,
    payloadCompressedBytes: Int, payloadUncompressedBytes: Int, isComplete: Bool,
    isWriterGone: Bool = false
  ) {
    self.formatVersion = formatVersion
    self.rootReducer = rootReducer
    self.stateType = stateType
    self.actionType = actionType
    self.keyframeInterval = keyframeInterval
    self.extra = extra
    self.stepCount = stepCount
    self.effectCount = effectCount
    self.gaps = gaps
    self.firstWallTime = firstWallTime
    self.lastWallTime = lastWallTime
    self.fileSize = fileSize
    self.payloadCompressedBytes = payloadCompressedBytes
    self.payloadUncompressedBytes = payloadUncompressedBytes
    self.isComplete = isComplete
    self.isWriterGone = isWriterGone
  }
}

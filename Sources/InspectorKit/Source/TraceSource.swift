import Foundation
import TraceKit

/// What the inspector reads from a trace. The real trace file (`TraceReader`) conforms through
/// an adapter; tests can use a trace held in memory. Every method answers from the index or
/// from the few chunks it needs, never by reading the whole trace, except where it says so.
///
/// ```swift
/// let source: any TraceSource = try TraceFileSource(path: "bug.rewind")
/// try source.summary().stepCount  // 1_000_000
/// ```
package protocol TraceSource: AnyObject {
  /// The file the trace came from, for messages.
  var path: String { get }
  func summary() throws(InspectorError) -> TraceSummary
  /// Calls `body` for the index row of every step in `from...to` in order, until it returns
  /// false.
  func forEachStep(
    from: Int, to: Int, _ body: (StepEntry) throws(InspectorError) -> Bool
  ) throws(InspectorError)
  func action(at step: Int) throws(InspectorError) -> TraceValue
  func changes(at step: Int) throws(InspectorError) -> [TraceChange]
  /// The state after the step: nearest keyframe plus patches.
  func state(at step: Int) throws(InspectorError) -> TraceValue
  /// The full state stored at the step when it is a keyframe, else nil.
  func keyframe(at step: Int) throws(InspectorError) -> TraceValue?
  func effects() throws(InspectorError) -> [EffectEntry]
  func tree() throws(InspectorError) -> TreeEntry?
  /// Makes steps committed since the last call visible (live follow).
  func refresh() throws(InspectorError)
}

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
  package var gaps: [Gap]
  package var firstWallTime: Double?
  package var lastWallTime: Double?
  package var fileSize: Int
  package var payloadCompressedBytes: Int
  package var payloadUncompressedBytes: Int
  /// Whether the writer closed the trace (it is not being written any more).
  package var isComplete: Bool

  package struct Gap: Sendable, Equatable {
    package var afterStep: Int
    package var dropped: Int

    package init(afterStep: Int, dropped: Int) {
      self.afterStep = afterStep
      self.dropped = dropped
    }
  }

  package init(
    formatVersion: Int, rootReducer: String, stateType: String, actionType: String,
    keyframeInterval: Int, extra: [String: String] = [:], stepCount: Int, effectCount: Int,
    gaps: [Gap] = [], firstWallTime: Double?, lastWallTime: Double?, fileSize: Int,
    payloadCompressedBytes: Int, payloadUncompressedBytes: Int, isComplete: Bool
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
  }
}

/// Who sent a step's action.
package enum StepSource: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)

  /// `initial`, `user` or `effect:<UUID>`, as the trace stores it.
  package var text: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    }
  }
}

/// One step's index row.
package struct StepEntry: Sendable, Equatable {
  package var step: Int
  package var monotonicNanos: UInt64
  package var wallTime: Double
  package var origin: StepSource
  package var actionPath: String
  package var changedPaths: [String]
  package var stateHash: UInt64
  package var reducerNanos: UInt64

  package init(
    step: Int, monotonicNanos: UInt64, wallTime: Double, origin: StepSource, actionPath: String,
    changedPaths: [String], stateHash: UInt64, reducerNanos: UInt64
  ) {
    self.step = step
    self.monotonicNanos = monotonicNanos
    self.wallTime = wallTime
    self.origin = origin
    self.actionPath = actionPath
    self.changedPaths = changedPaths
    self.stateHash = stateHash
    self.reducerNanos = reducerNanos
  }
}

/// One effect's lifecycle.
package struct EffectEntry: Sendable, Equatable {
  package enum Outcome: Sendable, Hashable {
    case running
    case finished
    case cancelled(reason: String, byStep: Int?)
    case unfinished
  }

  package var id: UUID
  package var startedByStep: Int
  package var cancelID: String?
  package var file: String?
  package var line: Int?
  package var startNanos: UInt64?
  package var endNanos: UInt64?
  package var outcome: Outcome
  package var sentSteps: [Int]

  package init(
    id: UUID, startedByStep: Int, cancelID: String? = nil, file: String? = nil, line: Int? = nil,
    startNanos: UInt64?, endNanos: UInt64?, outcome: Outcome, sentSteps: [Int]
  ) {
    self.id = id
    self.startedByStep = startedByStep
    self.cancelID = cancelID
    self.file = file
    self.line = line
    self.startNanos = startNanos
    self.endNanos = endNanos
    self.outcome = outcome
    self.sentSteps = sentSteps
  }

  /// How long it ran, when both ends are known.
  package var durationNanos: UInt64? {
    guard let start = startNanos, let end = endNanos, end >= start else { return nil }
    return end - start
  }
}

/// One node of the stored reducer tree.
package struct TreeEntry: Sendable, Equatable {
  package var kind: String
  package var typeName: String
  package var statePath: String?
  package var actionPrefix: String?
  package var children: [TreeEntry]

  package init(
    kind: String, typeName: String, statePath: String? = nil, actionPrefix: String? = nil,
    children: [TreeEntry] = []
  ) {
    self.kind = kind
    self.typeName = typeName
    self.statePath = statePath
    self.actionPrefix = actionPrefix
    self.children = children
  }
}

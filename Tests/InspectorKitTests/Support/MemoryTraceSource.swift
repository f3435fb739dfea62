import Foundation
import TraceKit

@testable import InspectorKit

/// A trace held in memory, for command tests that need no file: every state is stored whole,
/// and the index rows are built from the diffs between them.
final class MemoryTraceSource: TraceSource {
  let path: String
  var states: [TraceValue]
  var actions: [TraceValue]
  var actionPaths: [String]
  var origins: [StepOrigin]
  var effectList: [EffectRecord]
  var root: ReducerTreeNode?
  var keyframeInterval: Int
  var isComplete = true
  /// Hashes to report instead of the real ones (to test replay failures).
  var recordedHashOverride: [Int: UInt64] = [:]
  /// Keyframes to report instead of the real states (to test replay failures).
  var keyframeOverride: [Int: TraceValue] = [:]
  /// Each step's monotonic time instead of a step every 250 ms (a virtual clock's instants).
  var times: [UInt64]?
  /// Each step's reducer time instead of 1 µs.
  var reducerTimes: [UInt64]?
  /// Gaps the summary reports (the steps stay in `states`).
  var gaps: [TraceGap] = []

  init(
    path: String = "memory.rewind", states: [TraceValue], actions: [(String, TraceValue)],
    origins: [StepOrigin]? = nil, effects: [EffectRecord] = [], tree: ReducerTreeNode? = nil,
    keyframeInterval: Int = 4
  ) {
    self.path = path
    self.states = states
    self.actions = [.null] + actions.map(\.1)
    actionPaths = [""] + actions.map(\.0)
    self.origins = origins ?? ([.initial] + actions.map { _ in .user })
    effectList = effects
    root = tree
    self.keyframeInterval = keyframeInterval
  }

  func summary() throws(InspectorError) -> TraceSummary {
    TraceSummary(
      formatVersion: 1, rootReducer: "AppFeature", stateType: "AppFeature.State",
      actionType: "AppFeature.Action", keyframeInterval: keyframeInterval,
      stepCount: states.count - 1, effectCount: effectList.count, gaps: gaps,
      firstWallTime: 1_780_000_000,
      lastWallTime: 1_780_000_000 + Double(states.count - 1) * 0.25, fileSize: 4096,
      payloadCompressedBytes: 1000, payloadUncompressedBytes: 3500, isComplete: isComplete)
  }

  func entry(_ step: Int) -> StepRow {
    let changes = step == 0 ? [] : TraceDiff.changes(from: states[step - 1], to: states[step])
    return StepRow(
      step: step, monotonicNanos: times?[step] ?? UInt64(step) * 250_000_000,
      wallTime: 1_780_000_000 + Double(step) * 0.25, origin: origins[step],
      actionPath: actionPaths[step],
      changedPaths: Array(Set(changes.map { $0.path.description })).sorted(),
      stateHash: recordedHashOverride[step] ?? states[step].stableHash,
      reducerNanos: reducerTimes?[step] ?? 1000)
  }

  func forEachStep(
    from: Int, to: Int, _ body: (StepRow) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    guard from <= to else { return }
    for step in from...min(to, states.count - 1) {
      if try !body(entry(step)) { return }
    }
  }

  func action(at step: Int) throws(InspectorError) -> TraceValue { actions[step] }

  func changes(at step: Int) throws(InspectorError) -> [TraceChange] {
    TraceDiff.changes(from: states[step - 1], to: states[step])
  }

  func state(at step: Int) throws(InspectorError) -> TraceValue { states[step] }

  func keyframe(at step: Int) throws(InspectorError) -> TraceValue? {
    step % keyframeInterval == 0 ? keyframeOverride[step] ?? states[step] : nil
  }

  func effects() throws(InspectorError) -> [EffectRecord] { effectList }

  func tree() throws(InspectorError) -> ReducerTreeNode? { root }

  func refresh() throws(InspectorError) {}
}

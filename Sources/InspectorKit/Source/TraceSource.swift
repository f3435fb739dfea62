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
    from: Int, to: Int, _ body: (StepRow) throws(InspectorError) -> Bool
  ) throws(InspectorError)
  /// `forEachStep` with each step's payload, for commands that read every step's action or
  /// changes: a file decompresses each chunk once instead of looking up each step.
  func forEachStepContent(
    from: Int, to: Int, _ body: (StepRow, StepContent) throws(InspectorError) -> Bool
  ) throws(InspectorError)
  func action(at step: Int) throws(InspectorError) -> TraceValue
  func changes(at step: Int) throws(InspectorError) -> [TraceChange]
  /// The dependency values the step's reducer read (empty for sources that keep none).
  func dependencies(at step: Int) throws(InspectorError) -> [DependencyRead]
  /// The Swift types the recorder stored (nil: none, as in a trace recorded before them).
  func swiftTypes() throws(InspectorError) -> SwiftTypeTable?
  /// The dependency keys the feature read (nil: not listed, as in a trace recorded before).
  func dependencyKeys() throws(InspectorError) -> [DependencyKeyRecord]?
  /// The state after the step: nearest keyframe plus patches.
  func state(at step: Int) throws(InspectorError) -> TraceValue
  /// The full state stored at the step when it is a keyframe, else nil.
  func keyframe(at step: Int) throws(InspectorError) -> TraceValue?
  func effects() throws(InspectorError) -> [EffectRecord]
  /// The effects started by the steps `from...to`, one at a time in the order they started,
  /// for commands that must not hold every effect of a long trace.
  func effectStream(startedFrom from: Int, through to: Int) throws(InspectorError)
    -> any EffectStream
  func tree() throws(InspectorError) -> ReducerTreeNode?
  /// Makes steps committed since the last call visible (live follow).
  func refresh() throws(InspectorError)

  // What the interactive view asks while a person moves (see `TraceSource+Navigation`, which
  // answers every question from the calls above for sources without a faster way).

  /// Up to `limit` index rows that pass `filter`, by ascending step (or descending).
  func rows(
    matching filter: StepFilter, limit: Int, descending: Bool
  ) throws(InspectorError) -> [StepRow]
  /// How many steps pass `filter` (within its `from...to`).
  func count(matching filter: StepFilter) throws(InspectorError) -> Int
  /// The distinct action paths of the trace.
  func actionPaths() throws(InspectorError) -> [String]
  /// The number of steps per action path in `from...to`.
  func actionCounts(from: Int, to: Int) throws(InspectorError) -> [String: Int]
  /// The effects whose reducer step was `step`.
  func effects(startedBy step: Int) throws(InspectorError) -> [EffectRecord]
  /// One effect by its id.
  func effect(id: UUID) throws(InspectorError) -> EffectRecord?
  /// Whether something is still writing the trace.
  func writerState() -> WriterState
}

extension TraceSource {
  package func dependencies(at step: Int) throws(InspectorError) -> [DependencyRead] { [] }
  package func swiftTypes() throws(InspectorError) -> SwiftTypeTable? { nil }
  package func dependencyKeys() throws(InspectorError) -> [DependencyKeyRecord]? { nil }

  /// For sources held in memory: their effects, sorted by start time.
  package func effectStream(startedFrom from: Int, through to: Int) throws(InspectorError)
    -> any EffectStream
  {
    let started = try effects().enumerated()
      .filter { $0.element.startedByStep >= from && $0.element.startedByStep <= to }
      .sorted {
        ($0.element.startNanos ?? .max, $0.offset) < ($1.element.startNanos ?? .max, $1.offset)
      }
      .map(\.element)
    return EffectList(started)
  }

  package func forEachStepContent(
    from: Int, to: Int, _ body: (StepRow, StepContent) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    try forEachStep(from: from, to: to) { entry throws(InspectorError) in
      try body(entry, StepContent(storage: .source(self, step: entry.step)))
    }
  }
}

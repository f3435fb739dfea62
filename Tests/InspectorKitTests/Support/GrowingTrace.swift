import Foundation
import TraceKit

/// A trace the test writes step by step with `TraceWriter`: a counter and the notes the steps
/// add (any text: escape sequences, Korean), so a test can make a trace grow while the
/// inspector reads it, and can choose what it holds.
///
/// ```swift
/// let trace = try GrowingTrace(path: directory.path("live.rewind"))
/// try trace.append(note: "한국어")   // step 1, committed
/// try trace.close()
/// ```
final class GrowingTrace {
  let path: String
  private let writer: TraceWriter
  private(set) var step = 0
  private var count: Int64 = 0
  private var notes: [String] = []

  init(path: String) throws {
    self.path = path
    writer = try TraceWriter(
      path: path,
      metadata: TraceMetadata(
        rootReducer: "Notes", stateType: "Notes.State", actionType: "Notes.Action",
        keyframeInterval: 8),
      initialState: Self.state(count: 0, notes: []), wallTime: 1_780_000_000)
    try writer.writeTree(
      ReducerTreeNode(
        kind: "Recorder", typeName: "Notes",
        children: [ReducerTreeNode(kind: "Reduce", typeName: "Notes")]))
    try writer.flush()
  }

  static func state(count: Int64, notes: [String]) -> TraceValue {
    .object([
      TraceField("count", .int(count)),
      TraceField("notes", .array(notes.map { .string($0) })),
    ])
  }

  /// Appends one step (a note when given, else a tap on the counter, under `action` when
  /// given) and commits it.
  func append(note: String? = nil, action name: String? = nil) throws {
    let old = Self.state(count: count, notes: notes)
    step += 1
    let path: String
    let action: TraceValue
    if let note {
      notes.append(note)
      path = "noteAdded"
      action = .enumCase("noteAdded", [TraceField("_0", .string(note))])
    } else {
      count += 1
      path = name ?? "tapped"
      action = .enumCase(path, [])
    }
    let new = Self.state(count: count, notes: notes)
    let changes = TraceDiff.changes(from: old, to: new)
    let nanos = UInt64(step) * 100_000_000
    try writer.append(
      StepRecord(
        step: step, monotonicNanos: nanos, wallTime: 1_780_000_000 + Double(nanos) / 1e9,
        origin: .user, actionPath: path, action: action, changes: changes,
        changedPaths: Array(Set(changes.map(\.path.description))).sorted(),
        stateHash: new.stableHash, reducerNanos: 1_000),
      state: new)
    try writer.flush()
  }

  func close() throws {
    try writer.close()
  }
}

import Foundation

/// `trace.size-vs-snapshots.todos10k`: how many times smaller the Recorder's trace of the
/// 10,000-todo list is than a JSON log holding the full state after every step (one
/// `JSONEncoder` line per step, the naive way to keep history).
///
/// The log's size is counted exactly without writing gigabytes: each element's JSON is encoded
/// once and re-encoded when a step changes it, and the log line is the sum of the element
/// sizes plus the state's framing. The sum is checked against a real `JSONEncoder` encoding
/// of the whole state at the first and the last step.
struct SizeVsSnapshotsCase: BenchCase {
  let name = "trace.size-vs-snapshots.todos10k"
  let target = Target.atLeast(100)

  func run(_ context: BenchContext) throws -> CaseResult {
    let size = TodoList.benchmarkSize
    let steps = context.scale.snapshotSteps
    let script = { (step: Int) in TodoList.action(at: step, count: size) }
    let run = try RecordedSession.record(
      TodoList(), initialState: TodoList.State(count: size), steps: steps,
      path: context.newTracePath("snapshots"), script: script)
    let logBytes = try snapshotLogSize(steps: steps, size: size, script: script)
    let ratio = Double(logBytes) / Double(run.fileSize)
    return CaseResult(
      name: name, value: ratio, unit: "x", spread: .exact(ratio),
      baseline: Baseline(
        label: "JSON log of full states", value: Double(logBytes) / 1_048_576, unit: "MB"),
      ratio: ratio, target: target,
      note: "trace \(NumberFormat.grouped(Int64(run.fileSize))) bytes for "
        + "\(NumberFormat.grouped(Int64(steps))) steps of \(NumberFormat.grouped(Int64(size)))"
        + " todos")
  }

  /// The bytes of a JSON Lines file with the state after each of steps 1…steps.
  private func snapshotLogSize(
    steps: Int, size: Int, script: (Int) -> TodoList.Action
  ) throws -> Int {
    let encoder = JSONEncoder()
    var state = TodoList.State(count: size)
    var elementSizes: [UUID: Int] = [:]
    var elementTotal = 0
    for todo in state.todos {
      let bytes = try encoder.encode(todo).count
      elementSizes[todo.id] = bytes
      elementTotal += bytes
    }
    // Everything in a state's JSON that is not an element or the edit count: braces, keys,
    // brackets, commas.
    let framing = try encoder.encode(state).count - elementTotal
      - String(state.editCount).utf8.count
    var total = 0
    let reducer = TodoList()
    for step in 1...steps {
      let action = script(step)
      _ = reducer.reduce(into: &state, action: action)
      let id: UUID
      switch action {
      case .toggleCompleted(let changed), .titleChanged(let changed, _): id = changed
      }
      guard let todo = state.todos[id: id], let old = elementSizes[id] else {
        throw BenchError("step \(step) changed todo \(id), which is not in the list")
      }
      let bytes = try encoder.encode(todo).count
      elementSizes[id] = bytes
      elementTotal += bytes - old
      let line = framing + elementTotal + String(state.editCount).utf8.count
      if step == 1 || step == steps {
        let actual = try encoder.encode(state).count
        guard actual == line else {
          throw BenchError(
            "counted \(line) JSON bytes at step \(step), JSONEncoder wrote \(actual)")
        }
      }
      total += line + 1  // the newline of the JSON Lines file
    }
    return total
  }
}

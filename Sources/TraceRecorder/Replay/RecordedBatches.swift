import TraceKit

/// Reads a trace's steps in order, grouped as the store reduced them: a batch is a step sent
/// from outside the reducers (the user, an effect, an observer, an inspector) and the steps of
/// the synchronous `.send`s that followed it. A step's `.send`s are all in its batch, so
/// replay can check them at the step that returned them.
///
/// ```swift
/// try RecordedBatches(reader: reader).forEach(from: 1) { batch in
///   print(batch.map(\.step))  // [1, 2, 3], then [4], …
///   return true
/// }
/// ```
struct RecordedBatches {
  let reader: TraceReader
  let actions = RecordedActions()

  /// Calls `body` with each batch of steps `from…` in order; `body` returns false to stop.
  func forEach(from first: Int, _ body: ([RecordedStep]) throws -> Bool) throws {
    var batch: [RecordedStep] = []
    var stopped = false
    try reader.forEachStep(from: first, to: .max) { row, payload in
      if row.origin != .initial, !isSend(row.origin), !batch.isEmpty {
        guard try body(batch) else {
          stopped = true
          return false
        }
        // A new array: `body` may keep the batch (the read-ahead hands it to the replay
        // thread), and emptying a kept array in place copied it first.
        batch = []
      }
      try payload.withActionJSON { json, dependencies in
        let (action, id) = try actions.action(json)
        batch.append(
          RecordedStep(
            step: row.step, origin: row.origin, actionPath: row.actionPath,
            stateHash: row.stateHash, action: action, actionID: id,
            dependencies: dependencies))
      }
      return true
    }
    if !stopped, !batch.isEmpty {
      _ = try body(batch)
    }
  }

  private func isSend(_ origin: StepOrigin) -> Bool {
    if case .send = origin { return true }
    return false
  }
}

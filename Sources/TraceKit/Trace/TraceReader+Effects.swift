import Foundation

// Reading the `effects` and `effect_sends` tables: all at once (`effects()`, in
// TraceReader+Summary.swift) or one at a time in the order they started (`EffectCursor`).

extension TraceReader {
  static let effectColumns = """
    id, started_by_step, cancel_id, file, line, start_ns, end_ns, outcome, cancel_reason,
      cancelled_by_step
    """

  /// A cursor over the effects started by the steps `first…last`, in the order they started
  /// (start time, then the order the writer recorded them).
  public func effectCursor(startedFrom first: Int, through last: Int) throws(TraceError)
    -> EffectCursor
  {
    try EffectCursor(reader: self, first: first, last: last)
  }

  /// A step of `effect_sends`, range-checked.
  func sentStep(_ statement: SQLiteStatement, column: Int32, effect id: String)
    throws(TraceError) -> Int
  {
    let file = path
    return try Self.step(statement, column, "step") { reason in
      TraceError(.corruptIndex("effect_sends of \(Self.shown(id)): \(reason)"), file: file)
    }
  }

  /// The effect in the current row of a statement selecting `effectColumns`.
  func decodeEffect(_ rows: SQLiteStatement, sentSteps: [Int]) throws(TraceError)
    -> EffectRecord
  {
    let idText = rows.text(at: 0)
    guard let id = UUID(uuidString: idText) else {
      throw TraceError(
        .corruptIndex("effect id \(Self.shown(idText)) is not a UUID"), file: path)
    }
    let file = path
    func damaged(_ reason: String) -> TraceError {
      TraceError(.corruptIndex("effect \(idText): \(reason)"), file: file)
    }
    let outcomeText = rows.text(at: 7)
    let outcome: EffectOutcome
    switch outcomeText {
    case "running": outcome = .running
    case "finished": outcome = .finished
    case "unfinished": outcome = .unfinished
    case "cancelled":
      let byStep = try Self.optionalInteger(
        rows, 9, "cancelled_by_step", in: Self.stepRange, damaged)
      outcome = .cancelled(reason: rows.text(at: 8), byStep: byStep.map { Int($0) })
    default:
      throw damaged("unknown outcome \(Self.shown(outcomeText))")
    }
    let nanos = Self.nonNegative
    return EffectRecord(
      id: id,
      startedByStep: try Self.step(rows, 1, "started_by_step", damaged),
      cancelID: rows.optionalText(at: 2),
      file: rows.optionalText(at: 3),
      line: try Self.optionalInteger(rows, 4, "line", in: nanos, damaged).map { Int($0) },
      startNanos: try Self.optionalInteger(rows, 5, "start_ns", in: nanos, damaged)
        .map { UInt64($0) },
      endNanos: try Self.optionalInteger(rows, 6, "end_ns", in: nanos, damaged)
        .map { UInt64($0) },
      outcome: outcome,
      sentSteps: sentSteps)
  }
}

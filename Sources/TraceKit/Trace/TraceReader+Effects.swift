// Reading the effects one at a time in the order they started (`EffectCursor`); all at once
// is `effects()` in TraceReader+Summary.swift, which decodes the rows the same way.

extension TraceReader {
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
}

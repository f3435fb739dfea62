/// Effects read one at a time, in the order they started: what a command that walks a long
/// trace in time order (the Perfetto export) needs without holding every effect in memory.
///
/// ```swift
/// let cursor = try reader.effectCursor(startedFrom: 0, through: 100)
/// while let effect = try cursor.next() {
///   print(effect.id, effect.startNanos ?? 0)
/// }
/// ```
///
/// The cursor owns its statement and finalizes it when it goes away; it reads the trace's
/// connection, so it belongs to the reader's thread, as the reader does.
public final class EffectCursor {
  private let reader: TraceReader
  private let rows: SQLiteStatement
  private let sends: SQLiteStatement
  private var isDone = false

  init(reader: TraceReader, first: Int, last: Int) throws(TraceError) {
    self.reader = reader
    do {
      // No index on start_ns: SQLite sorts the selected rows in its own bounded sorter, which
      // spills to a temporary file rather than growing without end.
      rows = try reader.database.prepare(
        """
        SELECT \(try reader.effectColumns()) FROM effects
        WHERE started_by_step >= ? AND started_by_step <= ? ORDER BY start_ns, rowid
        """)
      try rows.bind(first, at: 1)
      try rows.bind(last, at: 2)
      sends = try reader.database.prepare(
        "SELECT step FROM effect_sends WHERE effect_id = ? ORDER BY step")
    } catch {
      throw reader.queryError(error)
    }
  }

  /// The next effect (with the steps it sent), or nil after the last one.
  public func next() throws(TraceError) -> EffectRecord? {
    guard !isDone else { return nil }
    let found: Bool
    do {
      found = try rows.step()
    } catch {
      throw reader.queryError(error)
    }
    guard found else {
      isDone = true
      rows.reset()
      return nil
    }
    let idText = rows.text(at: 0)
    var sent: [Int] = []
    do {
      // The primary key (effect_id, step) makes this one seek.
      try sends.bind(idText, at: 1)
      defer { sends.reset() }
      while try sends.step() {
        sent.append(try reader.sentStep(sends, column: 0, effect: idText))
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw reader.queryError(error)
    } catch {
      throw TraceError(.database("\(error)"), file: reader.path)
    }
    return try reader.decodeEffect(rows, sentSteps: sent)
  }
}

import TraceKit

extension Decodable where Self: Encodable {
  /// Applies a change as the trace recorded it — a path in the trace's syntax
  /// (`todos[id: "…"].isComplete`, `path[2]`, `["a key"]`) and a value — by encoding the
  /// state, changing the tree, and decoding it back: what a generated test writes for a change
  /// below a state's top-level properties, whose Swift spelling (optional chaining, which
  /// collection) the trace cannot know.
  ///
  /// ```swift
  /// await store.send(.todos(.element(id: .recorded("…"), action: .toggleCompleted))) {
  ///   try $0.recorded(set: #"todos[id: "…"].isComplete"#, true)
  /// }
  /// ```
  public mutating func recorded(set path: String, _ value: RecordedValue) throws {
    try apply(at: path) { .set($0, try value.traceValue()) }
  }

  /// Inserts a recorded value at a position of an array (`todos[0]`), or a new key.
  public mutating func recorded(insert path: String, _ value: RecordedValue) throws {
    try apply(at: path) { .insert($0, try value.traceValue()) }
  }

  /// Removes the element or key at a recorded path (`todos[id: "…"]`).
  public mutating func recorded(remove path: String) throws {
    try apply(at: path) { .remove($0) }
  }

  private mutating func apply(at text: String, _ change: (TracePath) throws -> TraceChange)
    throws
  {
    let path: TracePath
    do {
      path = try TracePath(parsing: text)
    } catch {
      throw RecordedValueError(description: "\(text) is not a recorded path: \(error)")
    }
    var tree: TraceValue
    do {
      tree = try TraceValueEncoder().encode(self)
    } catch {
      throw RecordedValueError(description: "\(Self.self) could not be encoded: \(error)")
    }
    let recorded = try change(path)
    do {
      try TraceDiff.apply([recorded], to: &tree)
    } catch {
      throw RecordedValueError(
        description: "the recorded change at \(text) does not fit: \(error)")
    }
    self = try RecordedValue(tree).decode(as: Self.self)
  }
}

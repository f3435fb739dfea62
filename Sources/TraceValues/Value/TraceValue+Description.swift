extension TraceValue: CustomStringConvertible {
  /// A one-line form that reads like a Swift value.
  ///
  /// ```swift
  /// let state: TraceValue = .object([
  ///   TraceField("count", .int(1)),
  ///   TraceField("mode", .enumCase("loading", [])),
  ///   TraceField("todos", .array([.object([
  ///     TraceField("id", .int(1)), TraceField("title", .string("a\n")),
  ///   ])])),
  /// ])
  /// print(state)  // (count: 1, mode: .loading, todos: [(id: 1, title: "a\n")])
  /// ```
  ///
  /// The one look of values (`ValueDumper`), on one line and never folded: `nil` for null;
  /// objects as `(key: value, …)`, `()` when empty, keys that are not identifiers quoted; enum
  /// cases as `.name`, `.name(value)`, `.name(label: value)`; strings quoted with control
  /// characters, ESC, DEL, U+2028/U+2029 and direction overrides escaped (`\n`, `\u{1B}`),
  /// never raw; bytes as `<3 bytes: 0102ff>` (the first 32 shown); reflected values as
  /// `TypeName(…)`.
  public var description: String {
    var output = ""
    write(to: &output)
    return output
  }

  /// Writes the one-line form (see `description`) to `output`.
  public func write(to output: inout some TextOutputStream) {
    ValueDumper(width: .max, maxItems: 0).writeInline(self, to: &output)
  }
}

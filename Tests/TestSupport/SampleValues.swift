import TraceKit

/// Small feature-like states for renderer tests: a counter, a nested child, an identified
/// array, an enum and a string holding an escape sequence.
public enum SampleValues {
  public static func todo(_ id: Int64, _ title: String, done: Bool = false) -> TraceValue {
    .object([
      TraceField("id", .int(id)), TraceField("title", .string(title)),
      TraceField("done", .bool(done)),
    ])
  }

  public static func state(
    count: Int64 = 0, isOn: Bool = false, todos: [TraceValue] = [],
    mode: TraceValue = .enumCase("idle", []), banner: String = "\u{1B}[31mhi"
  ) -> TraceValue {
    .object([
      TraceField("count", .int(count)),
      TraceField(
        "child",
        .object([
          TraceField("isOn", .bool(isOn)), TraceField("name", .string("child")),
        ])),
      TraceField("todos", .array(todos)),
      TraceField("mode", mode),
      TraceField("banner", .string(banner)),
    ])
  }
}

/// Everything a command needs: its arguments, the trace, and how to write.
struct CommandContext {
  var arguments: ParsedArguments
  var source: any TraceSource
  var terminal: any Terminal
  var style: Style
  var interruption: Interruption

  var command: String { arguments.command }

  /// Where a message about the trace points: the file, and the step when there is one.
  func location(step: Int? = nil) -> String {
    step.map { "\(source.path), step \($0)" } ?? source.path
  }

  /// The step number argument at `index`, checked against the trace's range.
  func step(
    _ text: String, named name: String, in summary: TraceSummary, lowest: Int = 0
  ) throws(InspectorError) -> Int {
    let step = try ParsedArguments.integer(text, for: name, in: command)
    try checkStep(step, in: summary, lowest: lowest)
    return step
  }

  func checkStep(_ step: Int, in summary: TraceSummary, lowest: Int = 0) throws(InspectorError) {
    guard step >= lowest, step <= summary.stepCount else {
      if lowest > summary.stepCount {
        throw .input(
          "step \(step) out of range: the trace has no step after step \(summary.stepCount)",
          where: source.path)
      }
      throw .input(
        "step \(step) out of range \(lowest)...\(summary.stepCount)", where: source.path)
    }
  }
}

import ComposableCore

/// `record.vs-reflection.todos10k`: how many times faster the Recorder records a step of the
/// 10,000-todo list than the upstream `_printChanges` way (reflection dump of the old and the
/// new state and a line diff of the two), on the same steps through the same store, interleaved
/// round by round.
struct RecordVsReflectionCase: BenchCase {
  let name = "record.vs-reflection.todos10k"
  let target = Target.atLeast(100)

  func run(_ context: BenchContext) throws -> CaseResult {
    let size = TodoList.benchmarkSize
    let script = { (step: Int) in TodoList.action(at: step, count: size) }
    let recordedSteps = try RecordedSession.calibratedSteps(
      pilot: context.scale.todosStepRange.lowerBound, seconds: context.scale.secondsPerSample,
      range: context.scale.todosStepRange
    ) { pilot in
      try RecordedSession.record(
        TodoList(), initialState: TodoList.State(count: size), steps: pilot,
        path: context.newTracePath("versus"), removingFile: true, script: script
      ).nanos
    }
    let reflectedSteps = context.scale.reflectionSteps
    var speedUps: [Double] = []
    var reflectionPerStep: [Double] = []
    var recorderPerStep: [Double] = []
    var printedBytes = 0
    for round in 0..<(1 + context.scale.traceSamples) {
      let printed = PrintedChanges()
      let reflected = RecordedSession.bare(
        TodoList().printingChangesByReflection(to: printed),
        initialState: TodoList.State(count: size), steps: reflectedSteps,
        script: script) / Double(reflectedSteps)
      let recorded = try RecordedSession.record(
        TodoList(), initialState: TodoList.State(count: size), steps: recordedSteps,
        path: context.newTracePath("versus"), removingFile: true, script: script
      ).nanos / Double(recordedSteps)
      guard printed.printer.output.writeCount > 0 else {
        throw BenchError("the reflection baseline printed nothing")
      }
      printedBytes = printed.printer.output.byteCount / reflectedSteps
      guard round > 0 else { continue }
      speedUps.append(reflected / recorded)
      reflectionPerStep.append(reflected / 1e6)
      recorderPerStep.append(recorded / 1e6)
    }
    let measured = Samples(speedUps)
    return CaseResult(
      name: name, value: measured.median, unit: "x", spread: Spread(measured),
      baseline: Baseline(
        label: "reflection _printChanges, ms/step", value: Samples(reflectionPerStep).median,
        unit: "ms"),
      ratio: measured.median, target: target,
      note: "Recorder \(NumberFormat.compact(Samples(recorderPerStep).median)) ms/step "
        + "(\(recordedSteps) steps incl. finish) vs reflection (\(reflectedSteps) steps, "
        + "\(NumberFormat.grouped(Int64(printedBytes))) B printed/step)")
  }
}

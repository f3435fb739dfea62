import CounterFeature

/// `trace.bytes-per-step.counter`: the size of a closed trace of the counter, recorded by the
/// Recorder, divided by its steps.
struct BytesPerStepCase: BenchCase {
  let name = "trace.bytes-per-step.counter"
  let target = Target.atMost(32)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.bytesPerStepSteps
    let run = try RecordedSession.record(
      Counter(), initialState: Counter.State(), steps: steps,
      path: context.newTracePath("bytes"), script: CounterScript.action(at:))
    let perStep = Double(run.fileSize) / Double(steps)
    return CaseResult(
      name: name, value: perStep, unit: "B/step", spread: .exact(perStep), target: target,
      note: "\(NumberFormat.grouped(Int64(run.fileSize))) bytes for "
        + "\(NumberFormat.grouped(Int64(steps))) steps (\(LongTrace.source))")
  }
}

import TraceKit

/// `trace.bytes-per-step.counter`: the size of a closed counter trace divided by its steps.
struct BytesPerStepCase: BenchCase {
  let name = "trace.bytes-per-step.counter"
  let target = Target.atMost(48)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.bytesPerStepSteps
    let trace = try LongTrace.record(steps: steps, path: context.newTracePath("bytes"))
    let perStep = Double(trace.fileSize) / Double(steps)
    return CaseResult(
      name: name, value: perStep, unit: "B/step", spread: .exact(perStep), target: target,
      note: "\(NumberFormat.grouped(Int64(trace.fileSize))) bytes for "
        + "\(NumberFormat.grouped(Int64(steps))) steps (\(trace.source))")
  }
}

import Foundation

/// `replay.throughput.counter`: steps per second that `inspector replay` rebuilds from the
/// keyframes and diffs of the long counter trace, checking every state's hash and every
/// keyframe (the whole process, start to exit).
struct ReplayCase: BenchCase {
  let name = "replay.throughput.counter"
  let target = Target.atLeast(1_500_000)

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    let argv = ["replay", trace.path]
    let check = try ProcessLauncher.captured(context.inspectorPath, argv)
    guard check.status == 0, check.stdout.contains("every hash match") else {
      throw BenchError(
        "inspector replay exited with status \(check.status): "
          + check.stdout.trimmingCharacters(in: .newlines)
          + check.stderr.trimmingCharacters(in: .newlines))
    }
    var rates: [Double] = []
    for _ in 0..<context.scale.replaySamples {
      let run = try ProcessLauncher.timed(context.inspectorPath, argv)
      guard run.status == 0 else {
        throw BenchError("inspector replay exited with status \(run.status)")
      }
      rates.append(Double(trace.steps + 1) / (run.nanos / 1e9))
    }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "steps/s", spread: Spread(measured),
      target: target,
      note: "inspector replay, whole process, \(NumberFormat.grouped(Int64(trace.steps))) steps")
  }
}

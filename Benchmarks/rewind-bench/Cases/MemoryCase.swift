import Foundation

/// `memory.record.1m`: how much the resident memory grows at its peak while 1,000,000 steps
/// are recorded, measured in a child process (so nothing the other cases allocated counts),
/// against the same child running the same steps without recording.
struct MemoryCase: BenchCase {
  let name = "memory.record.1m"
  let target = Target.atMost(16)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.longTraceSteps
    var recorded: [Double] = []
    var bare: [Double] = []
    let samples = max(1, context.scale.traceSamples / 2)
    for _ in 0..<samples {
      bare.append(try growth(context, mode: .bare, steps: steps))
      recorded.append(try growth(context, mode: .recorded, steps: steps))
    }
    let measured = Samples(recorded)
    return CaseResult(
      name: name, value: measured.median, unit: "MB", spread: Spread(measured),
      baseline: Baseline(label: "same steps unrecorded", value: Samples(bare).median, unit: "MB"),
      target: target,
      note: "peak VmHWM minus VmRSS before, child process, "
        + "\(NumberFormat.grouped(Int64(steps))) steps (\(MemoryChild.source))")
  }

  private func growth(
    _ context: BenchContext, mode: MemoryChild.Mode, steps: Int
  ) throws -> Double {
    let path = context.newTracePath("memory")
    let run = try ProcessLauncher.captured(
      context.executablePath, ["--child", "memory", mode.rawValue, String(steps), path])
    guard run.status == 0, let report = MemoryChild.Report(parsing: run.stdout) else {
      throw BenchError(
        "the memory child (\(mode.rawValue)) exited with status \(run.status): "
          + run.stderr.trimmingCharacters(in: .newlines))
    }
    TraceFile.remove(path)
    return Double(report.peak - report.before) / 1_048_576
  }
}

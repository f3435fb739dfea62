import SearchFeature
import TraceRecorder

/// `replay.chaos.100`: schedules per second that `Replay.chaos(seed:runs:)` runs over a trace
/// of about 100 steps: `rewind-demo`'s scripted session of the search that forgets
/// `cancelInFlight` (50 keystrokes, each lookup answering while the user types), recorded by
/// the demo binary beside this one. The time is the whole call: every schedule, and the
/// shrinking and description of those that end differently (most do: the bug is there).
struct ChaosReplayCase: BenchCase {
  let name = "replay.chaos.100"
  let target = Target.atLeast(100)

  func run(_ context: BenchContext) throws -> CaseResult {
    let path = context.newTracePath("chaos")
    let record = try ProcessLauncher.captured(
      context.demoPath,
      ["record", "search-buggy", "--out", path, "--steps", "50", "--seed", "1"])
    guard record.status == 0 else {
      throw BenchError(
        "rewind-demo record exited with status \(record.status): \(record.stderr)")
    }
    let replay = Replay(trace: path, reducer: Search(bug: .forgetsCancelInFlight))
    let runs = context.options.quick ? 100 : 500
    var rates: [Double] = []
    var steps = 0
    var differing = 0
    for round in 0..<(1 + context.scale.replaySamples) {
      var report: ChaosReport?
      let nanos = try Stopwatch.time { report = try replay.chaos(seed: 1, runs: runs) }
      guard let report, !report.isClean else {
        throw BenchError("chaos replay did not find the search's stale results")
      }
      differing = report.differing.count
      if round > 0 { rates.append(Double(runs) / (nanos / 1e9)) }
    }
    if case .matched(let matched, _) = try replay.run() { steps = matched }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "schedules/s", spread: Spread(measured),
      target: target,
      note: "search-buggy, \(steps) steps, \(runs) runs, \(differing) differ (shrunk)")
  }
}

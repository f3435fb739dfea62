import CounterFeature
import TraceRecorder

/// `replay.typed.counter` (an addition to the table): steps per second that the
/// Recorder's typed `Replay` re-executes on the real `Counter` reducer, checking each state's
/// hash against the trace. The same promise as `replay.throughput.counter`, on the other replay
/// path (the one that proves a fix), over a trace of `bytesPerStepSteps` steps recorded here.
struct TypedReplayCase: BenchCase {
  let name = "replay.typed.counter"
  let target = Target.atLeast(1_000_000)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.bytesPerStepSteps
    let path = context.newTracePath("typed")
    _ = try RecordedSession.record(
      Counter(), initialState: Counter.State(), steps: steps, path: path,
      script: CounterScript.action(at:))
    var rates: [Double] = []
    for round in 0..<(1 + context.scale.replaySamples) {
      var result: ReplayResult?
      let nanos = try Stopwatch.time { result = try Replay(trace: path, reducer: Counter()).run() }
      guard case .matched(let matched, _)? = result, matched == steps else {
        throw BenchError(
          "typed replay did not match its own trace: \(result.map(\.description) ?? "no result")")
      }
      if round > 0 { rates.append(Double(steps) / (nanos / 1e9)) }
    }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "steps/s", spread: Spread(measured),
      target: target,
      note: "TraceRecorder.Replay on Counter, \(NumberFormat.grouped(Int64(steps))) steps")
  }
}

import CounterFeature
import ShowcaseFeature
import TraceRecorder

/// `replay.typed.*`: steps per second that the Recorder's typed `Replay` re-executes on the
/// real reducer, checking each step's state hash, effects, `.send`s and dependency reads
/// against the trace, over a trace recorded here.
///
/// - `replay.typed.counter`: the fixtures' `Counter`, `bytesPerStepSteps` steps.
/// - `replay.typed.app`: the `Showcase` fixture (Scope, forEach, presentation, onChange), the
///   same number of steps of `ShowcaseScript`, whose toggles and searches start and cancel
///   effects.
struct TypedReplayCase: BenchCase {
  let name: String
  let target: Target
  let feature: String
  /// Records `steps` steps into a new trace at `path`.
  let record: @MainActor (_ path: String, _ steps: Int) throws -> Void
  let replay: (_ path: String) throws -> ReplayResult

  static let counter = TypedReplayCase(
    name: "replay.typed.counter", target: .atLeast(1_000_000), feature: "Counter",
    record: { path, steps in
      _ = try RecordedSession.record(
        Counter(), initialState: Counter.State(), steps: steps, path: path,
        script: CounterScript.action(at:))
    },
    replay: { path in try Replay(trace: path, reducer: Counter()).run() })

  static let app = TypedReplayCase(
    name: "replay.typed.app", target: .atLeast(100_000), feature: "Showcase",
    record: { path, steps in
      _ = try RecordedSession.record(
        Showcase(), initialState: Showcase.State(todoCount: ShowcaseScript.todoCount),
        steps: steps, path: path, script: ShowcaseScript.action(at:))
    },
    replay: { path in try Replay(trace: path, reducer: Showcase()).run() })

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.bytesPerStepSteps
    let path = context.newTracePath(name)
    try record(path, steps)
    var rates: [Double] = []
    for round in 0..<(1 + context.scale.replaySamples) {
      var result: ReplayResult?
      let nanos = try Stopwatch.time { result = try replay(path) }
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
      note: "TraceRecorder.Replay on \(feature), \(NumberFormat.grouped(Int64(steps))) steps")
  }
}

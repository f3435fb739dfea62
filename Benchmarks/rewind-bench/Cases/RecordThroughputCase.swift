import ComposableCore
import CounterFeature
import ShowcaseFeature

/// `record.throughput.counter` and `record.throughput.todos10k`: steps per second recorded end
/// to end (every action sent through a recording store, then `finish()`: captured, encoded,
/// diffed, hashed, compressed and committed), against the same sends unrecorded.
struct RecordThroughputCase: BenchCase {
  let name: String
  let target: Target
  /// The range of steps per sample (calibrated inside it; see `Scale.secondsPerSample`).
  let stepRange: @MainActor (Scale) -> ClosedRange<Int>
  /// One recorded run (nanos) and one bare run (nanos) of `steps` steps.
  let recorded: @MainActor (_ steps: Int, _ path: String) throws -> Double
  let bare: @MainActor (_ steps: Int) -> Double
  let label: String

  func run(_ context: BenchContext) throws -> CaseResult {
    let range = stepRange(context.scale)
    let steps = try RecordedSession.calibratedSteps(
      pilot: range.lowerBound, seconds: context.scale.secondsPerSample, range: range
    ) { pilot in try recorded(pilot, context.newTracePath(name)) }
    var rates: [Double] = []
    var bareRates: [Double] = []
    var ratios: [Double] = []
    // Interleaved pairs, the order alternated (the calibration run was the warm-up).
    for round in 0..<context.scale.traceSamples {
      var recordedNanos = 0.0
      var bareNanos = 0.0
      if round % 2 == 0 {
        recordedNanos = try recorded(steps, context.newTracePath(name))
        bareNanos = bare(steps)
      } else {
        bareNanos = bare(steps)
        recordedNanos = try recorded(steps, context.newTracePath(name))
      }
      let rate = Double(steps) / (recordedNanos / 1e9)
      let bareRate = Double(steps) / (bareNanos / 1e9)
      rates.append(rate)
      bareRates.append(bareRate)
      ratios.append(rate / bareRate)
    }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "steps/s", spread: Spread(measured),
      baseline: Baseline(label: "unrecorded sends", value: Samples(bareRates).median,
        unit: "steps/s"),
      ratio: Samples(ratios).median, target: target,
      note: "\(NumberFormat.grouped(Int64(steps))) steps per sample incl. finish(), \(label)")
  }

  static let counter = RecordThroughputCase(
    name: "record.throughput.counter", target: .atLeast(300_000),
    stepRange: { $0.counterStepRange },
    recorded: { steps, path in
      try RecordedSession.record(
        Counter(), initialState: Counter.State(), steps: steps, path: path, removingFile: true,
        script: CounterScript.action(at:)
      ).nanos
    },
    bare: { steps in
      RecordedSession.bare(
        Counter(), initialState: Counter.State(), steps: steps, script: CounterScript.action(at:))
    },
    label: "Counter")

  static let todos = RecordThroughputCase(
    name: "record.throughput.todos10k", target: .atLeast(30_000),
    stepRange: { $0.todosStepRange },
    recorded: { steps, path in
      let count = TodoList.benchmarkSize
      return try RecordedSession.record(
        TodoList(), initialState: TodoList.State(count: count), steps: steps, path: path,
        removingFile: true, script: { TodoList.action(at: $0, count: count) }
      ).nanos
    },
    bare: { steps in
      let count = TodoList.benchmarkSize
      return RecordedSession.bare(
        TodoList(), initialState: TodoList.State(count: count), steps: steps,
        script: { TodoList.action(at: $0, count: count) })
    },
    label: "10,000 todos, one changed per step")

  static let app = RecordThroughputCase(
    name: "record.throughput.app", target: .atLeast(100_000),
    stepRange: { $0.appStepRange },
    recorded: { steps, path in
      try RecordedSession.record(
        Showcase(), initialState: Showcase.State(todoCount: ShowcaseScript.todoCount),
        steps: steps, path: path, removingFile: true, script: ShowcaseScript.action(at:)
      ).nanos
    },
    bare: { steps in
      RecordedSession.bare(
        Showcase(), initialState: Showcase.State(todoCount: ShowcaseScript.todoCount),
        steps: steps, script: ShowcaseScript.action(at:))
    },
    label: "Showcase (Scope, forEach rows, presented search, onChange)")
}

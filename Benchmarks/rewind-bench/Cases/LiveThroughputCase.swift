import ComposableCore
import CounterFeature
import Foundation
import LiveAttach
import TraceRecorder

/// `live.throughput.counter`: steps per second that reach one attached inspector — decoded
/// from its socket — while the counter sends as fast as it can, recorded in memory only. The
/// time runs from the first send until the client has the last step, and only the steps it
/// received count (a client slower than the recorder is told of the steps it missed, and they
/// are not counted); the baseline is the same recording with nobody attached, until `finish()`
/// (how fast the recorder itself goes).
struct LiveThroughputCase: BenchCase {
  let name = "live.throughput.counter"
  let target = Target.atLeast(100_000)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.longTraceSteps / 5
    var rates: [Double] = []
    var alone: [Double] = []
    var histories: [Double] = []
    var missed = 0
    for round in 0..<context.scale.traceSamples {
      if round % 2 == 0 {
        let run = try attached(steps, context)
        rates.append(run.rate)
        missed += run.missed
        alone.append(try unattached(steps, context))
      } else {
        alone.append(try unattached(steps, context))
        let run = try attached(steps, context)
        rates.append(run.rate)
        missed += run.missed
      }
      histories.append(try history(steps, context))
    }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "steps/s", spread: Spread(measured),
      baseline: Baseline(
        label: "the same recording, nobody attached", value: Samples(alone).median,
        unit: "steps/s"),
      ratio: nil, target: target,
      note: "\(NumberFormat.grouped(Int64(steps))) steps per sample, memory-only recorder, "
        + "one client decoding every message; it missed \(NumberFormat.grouped(Int64(missed))) "
        + "steps in all; a client attaching to the recorded history receives it at "
        + "\(NumberFormat.compact(Samples(histories).median)) steps/s")
  }

  /// A history that holds the whole sample: the client reads every step however far behind
  /// the recorder it falls, so the rate is what reaches it end to end.
  private func recorder(_ context: BenchContext, steps: Int) throws -> Recorder {
    try Recorder(
      configuration: .init(
        live: .init(historySteps: steps, directory: context.directory + "/live")))
  }

  private func attached(_ steps: Int, _ context: BenchContext) throws -> (
    rate: Double, missed: Int
  ) {
    let recorder = try recorder(context, steps: steps)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    let socket = context.directory + "/live/\(getpid()).sock"
    let watcher = try LiveWatcher(socketPath: socket, reading: true)
    watcher.note(steps)
    let start = Stopwatch.now()
    for step in 1...steps { store.send(CounterScript.action(at: step)) }
    guard let arrived = watcher.waitForStep(steps) else {
      throw BenchError("the client never received step \(steps)")
    }
    let (received, missed) = watcher.counts
    watcher.stop()
    recorder.finishBlocking()
    return (Double(received) / (Double(arrived - start) / 1e9), missed)
  }

  /// Steps per second a client attaching after the recording receives the history at.
  private func history(_ steps: Int, _ context: BenchContext) throws -> Double {
    let recorder = try recorder(context, steps: steps)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    for step in 1...steps { store.send(CounterScript.action(at: step)) }
    while recorder.queuedEvents > 0 { usleep(1_000) }
    // The writer hands the last steps to the history a moment after it took them.
    let socket = context.directory + "/live/\(getpid()).sock"
    while (try? LiveClient(socketPath: socket))?.welcome.lastStep ?? 0 < steps { usleep(1_000) }
    let start = Stopwatch.now()
    let watcher = try LiveWatcher(socketPath: socket, reading: true)
    watcher.note(steps)
    guard let arrived = watcher.waitForStep(steps) else {
      throw BenchError("the client never received step \(steps) of the history")
    }
    watcher.stop()
    recorder.finishBlocking()
    return Double(steps) / (Double(arrived - start) / 1e9)
  }

  private func unattached(_ steps: Int, _ context: BenchContext) throws -> Double {
    let recorder = try recorder(context, steps: steps)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    let start = Stopwatch.now()
    for step in 1...steps { store.send(CounterScript.action(at: step)) }
    recorder.finishBlocking()
    return Double(steps) / (Double(Stopwatch.now() - start) / 1e9)
  }
}

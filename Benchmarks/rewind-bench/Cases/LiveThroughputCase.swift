import ComposableCore
import CounterFeature
import Foundation
import TraceRecorder

/// `live.throughput.counter`: steps per second that reach one attached inspector — decoded
/// from its socket — while the counter sends as fast as it can, recorded in memory only. The
/// time runs from the first send until the client has the last step; the baseline is the same
/// recording with nobody attached, until `finish()` (how fast the recorder itself goes).
struct LiveThroughputCase: BenchCase {
  let name = "live.throughput.counter"
  let target = Target.atLeast(100_000)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.longTraceSteps / 5
    var rates: [Double] = []
    var alone: [Double] = []
    for round in 0..<context.scale.traceSamples {
      if round % 2 == 0 {
        rates.append(try attached(steps, context))
        alone.append(try unattached(steps, context))
      } else {
        alone.append(try unattached(steps, context))
        rates.append(try attached(steps, context))
      }
    }
    let measured = Samples(rates)
    return CaseResult(
      name: name, value: measured.median, unit: "steps/s", spread: Spread(measured),
      baseline: Baseline(
        label: "the same recording, nobody attached", value: Samples(alone).median,
        unit: "steps/s"),
      ratio: nil, target: target,
      note: "\(NumberFormat.grouped(Int64(steps))) steps per sample, memory-only recorder, "
        + "one client decoding every message")
  }

  private func recorder(_ context: BenchContext) -> Recorder {
    Recorder(
      configuration: .init(live: .init(historySteps: 10_000, directory: context.directory + "/live")))
  }

  private func attached(_ steps: Int, _ context: BenchContext) throws -> Double {
    let recorder = recorder(context)
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
    guard missed == 0 else {
      throw BenchError("the client missed \(missed) steps (it received \(received))")
    }
    return Double(steps) / (Double(arrived - start) / 1e9)
  }

  private func unattached(_ steps: Int, _ context: BenchContext) throws -> Double {
    let recorder = recorder(context)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    let start = Stopwatch.now()
    for step in 1...steps { store.send(CounterScript.action(at: step)) }
    recorder.finishBlocking()
    return Double(steps) / (Double(Stopwatch.now() - start) / 1e9)
  }
}

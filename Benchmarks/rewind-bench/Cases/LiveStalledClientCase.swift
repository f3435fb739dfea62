import ComposableCore
import CounterFeature
import Foundation
import TraceRecorder

/// `live.stalled-client`: the app's send overhead while an inspector watches it and reads
/// nothing for at least 10 seconds, over the same overhead with nobody attached (1.0: no
/// change). Two long-lived stores, recorded in memory with live attach on, send the same
/// actions in interleaved samples (each after the writer caught up); one has the stalled
/// watcher. The note says how many steps the stalled client was told it missed.
struct LiveStalledClientCase: BenchCase {
  let name = "live.stalled-client"
  let target = Target.atMost(1.1)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    let stalledRecorder = try Recorder(
      configuration: .init(
        live: .init(
          name: "stalled", historySteps: 2_000, directory: context.directory + "/stall")))
    let stalled = Store(initialState: Counter.State()) {
      Counter().recording(to: stalledRecorder)
    }
    let watcher = try LiveWatcher(
      socketPath: context.directory + "/stall/\(getpid()).sock", reading: false)
    let quietRecorder = try Recorder(
      configuration: .init(
        live: .init(name: "quiet", historySteps: 2_000, directory: context.directory + "/quiet")))
    let quiet = Store(initialState: Counter.State()) { Counter().recording(to: quietRecorder) }
    let bare = Store(initialState: Counter.State()) { Counter() }
    var ratios: [Double] = []
    var stalledOverheads: [Double] = []
    var quietOverheads: [Double] = []
    let start = Stopwatch.now()
    var round = 0
    var step = 1
    while round < context.scale.samples || Stopwatch.now() - start < 10_000_000_000 {
      var timings: [Int: SendTiming] = [:]
      for offset in 0..<3 {
        let which = (round + offset) % 3
        let store = [bare, quiet, stalled][which]
        timings[which] = SendTiming.sends(store, sends, from: step)
      }
      step += sends
      // Outside the timing: the writers take what was captured, so no sample waits for one.
      try drain(stalledRecorder)
      try drain(quietRecorder)
      round += 1
      guard round > 3, let bareTime = timings[0], let quietTime = timings[1],
        let stalledTime = timings[2]
      else { continue }
      quietOverheads.append(quietTime.wall - bareTime.wall)
      stalledOverheads.append(stalledTime.wall - bareTime.wall)
      ratios.append((stalledTime.wall - bareTime.wall) / max(1, quietTime.wall - bareTime.wall))
    }
    let seconds = Double(Stopwatch.now() - start) / 1e9
    stalledRecorder.finishBlocking()
    quietRecorder.finishBlocking()
    let missed = watcher.drainAndClose()
    guard missed > 0 else { throw BenchError("the stalled client missed no step: it was not") }
    let measured = Samples(ratios)
    return CaseResult(
      name: name, value: measured.median, unit: "×", spread: Spread(measured),
      baseline: Baseline(
        label: "send overhead, nobody attached", value: Samples(quietOverheads).median,
        unit: "ns"),
      ratio: nil, target: target,
      note: "with the stalled client \(NumberFormat.compact(Samples(stalledOverheads).median)) "
        + "ns; stalled \(NumberFormat.compact(seconds)) s, told it missed "
        + "\(NumberFormat.grouped(Int64(missed))) steps; \(sends) sends per sample")
  }

  private func drain(_ recorder: Recorder) throws {
    let deadline = Stopwatch.now() + 10_000_000_000
    while recorder.queuedEvents > 0 {
      guard Stopwatch.now() < deadline else { throw BenchError("the writer did not catch up") }
      usleep(200)
    }
  }
}

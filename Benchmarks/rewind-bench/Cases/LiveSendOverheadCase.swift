import ComposableCore
import CounterFeature
import Foundation
import TraceRecorder

/// `send.overhead.counter.live`: what live attach adds to the Recorder's main-actor cost when
/// nobody is attached. Three stores send the same actions in interleaved samples — bare,
/// recorded to a file, recorded to a file with live attach on — and the value is the live
/// overhead over the plain one, pair by pair (1.0: the same).
///
/// Live attach adds nothing to capture: the writer thread fills the history from the records
/// it encodes anyway. This case checks that it stays so.
struct LiveSendOverheadCase: BenchCase {
  let name = "send.overhead.counter.live"
  let target = Target.atMost(1.1)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    var ratios: [Double] = []
    var liveOverheads: [Double] = []
    var plainOverheads: [Double] = []
    var cpuRatios: [Double] = []
    let warmUp = 3
    for round in 0..<(warmUp + context.scale.samples) {
      var timings: [Int: SendTiming] = [:]
      // The order turns each round, so no store always runs first.
      for offset in 0..<3 {
        let which = (round + offset) % 3
        timings[which] = try sample(which, sends, context)
      }
      guard round >= warmUp, let bare = timings[0], let plain = timings[1],
        let live = timings[2]
      else { continue }
      plainOverheads.append(plain.wall - bare.wall)
      liveOverheads.append(live.wall - bare.wall)
      ratios.append((live.wall - bare.wall) / max(1, plain.wall - bare.wall))
      cpuRatios.append((live.cpu - bare.cpu) / max(1, plain.cpu - bare.cpu))
    }
    let plain = Samples(plainOverheads).median
    let live = Samples(liveOverheads).median
    let measured = Samples(ratios)
    return CaseResult(
      name: name, value: measured.median, unit: "×", spread: Spread(measured),
      baseline: Baseline(label: "Recorder overhead without live", value: plain, unit: "ns"),
      ratio: nil, target: target,
      note: "live overhead \(NumberFormat.compact(live)) ns, without live "
        + "\(NumberFormat.compact(plain)) ns (recorded minus bare per send, medians); on the "
        + "main thread's CPU time the ratio is "
        + "\(String(format: "%.2f", Samples(cpuRatios).median)) ×; \(sends) sends per sample, "
        + "nobody attached")
  }

  /// 0: bare, 1: recorded, 2: recorded with live attach on.
  private func sample(_ which: Int, _ count: Int, _ context: BenchContext) throws -> SendTiming {
    let script = CounterScript.action(at:)
    guard which > 0 else {
      return SendWorkload.bareSends(Counter(), Counter.State(), count, script: script)
    }
    let configuration = Recorder.Configuration(
      live: which == 2 ? Recorder.Live(directory: context.directory + "/live") : nil)
    return try SendWorkload.recordedSends(
      Counter(), Counter.State(), count, path: context.newTracePath("send-live"),
      configuration: configuration, script: script)
  }
}

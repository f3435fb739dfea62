import ComposableCore
import CounterFeature
import TraceRecorder

/// `send.overhead.counter`: the main-actor time the Recorder adds to one `send` of the
/// counter: a recorded store and a bare one send the same actions in interleaved samples; the
/// overhead is recorded minus bare, pair by pair.
///
/// Each sample sends fewer actions than the recorder's queue holds, so the main actor never
/// waits for the background writer: what is measured is capture (what a real app, which sends
/// far below the writer's rate, pays per action). Finishing the trace is outside the timing.
struct SendOverheadCase: BenchCase {
  let name = "send.overhead.counter"
  let target = Target.atMost(200)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    var overheads: [Double] = []
    var bareTimes: [Double] = []
    var ratios: [Double] = []
    var cpuOverheads: [Double] = []
    let warmUp = 3
    for round in 0..<(warmUp + context.scale.samples) {
      let recordedFirst = round % 2 == 0
      var recorded = SendTiming(wall: 0, cpu: 0)
      var bare = SendTiming(wall: 0, cpu: 0)
      if recordedFirst {
        recorded = try recordedSends(sends, path: context.newTracePath("send"))
        bare = bareSends(sends)
      } else {
        bare = bareSends(sends)
        recorded = try recordedSends(sends, path: context.newTracePath("send"))
      }
      guard round >= warmUp else { continue }
      overheads.append(recorded.wall - bare.wall)
      cpuOverheads.append(recorded.cpu - bare.cpu)
      bareTimes.append(bare.wall)
      ratios.append(recorded.wall / bare.wall)
    }
    let measured = Samples(overheads)
    return CaseResult(
      name: name, value: measured.median, unit: "ns", spread: Spread(measured),
      baseline: Baseline(label: "bare send", value: Samples(bareTimes).median, unit: "ns"),
      ratio: Samples(ratios).median, target: target,
      note: "recorded minus bare per send (wall time; main-thread CPU time: "
        + "\(NumberFormat.compact(Samples(cpuOverheads).median)) ns), \(sends) sends per sample")
  }

  /// Time per send through a recording store (its trace already created by one send).
  private func recordedSends(_ count: Int, path: String) throws -> SendTiming {
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    store.send(CounterScript.action(at: 1))
    let timing = SendTiming.sends(store, count)
    recorder.finishBlocking()
    if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
    TraceFile.remove(path)
    return timing
  }

  /// Time per send through a bare store.
  private func bareSends(_ count: Int) -> SendTiming {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(CounterScript.action(at: 1))
    return SendTiming.sends(store, count)
  }
}

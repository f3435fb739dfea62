/// `send.overhead.counter` and `send.overhead.app`: the main-actor time the Recorder adds to
/// one `send`: a recorded store and a bare one send the same actions in interleaved samples;
/// the overhead is recorded minus bare, pair by pair.
///
/// Each sample sends fewer actions than the recorder's queue holds, so the main actor never
/// waits for the background writer: what is measured is capture (what a real app, which sends
/// far below the writer's rate, pays per action). Finishing the trace is outside the timing.
struct SendOverheadCase: BenchCase {
  let name: String
  let target: Target
  let workload: SendWorkload

  static let counter = SendOverheadCase(
    name: "send.overhead.counter", target: .atMost(150), workload: .counter)
  static let app = SendOverheadCase(
    name: "send.overhead.app", target: .atMost(300), workload: .app)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    var overheads: [Double] = []
    var bareTimes: [Double] = []
    var ratios: [Double] = []
    var cpuOverheads: [Double] = []
    var recordedUsage = ThreadUsage()
    var bareUsage = ThreadUsage()
    let warmUp = 3
    for round in 0..<(warmUp + context.scale.samples) {
      let recordedFirst = round % 2 == 0
      var recorded = SendTiming(wall: 0, cpu: 0)
      var bare = SendTiming(wall: 0, cpu: 0)
      if recordedFirst {
        recorded = try workload.recorded(sends, context.newTracePath("send"))
        bare = workload.bare(sends)
      } else {
        bare = workload.bare(sends)
        recorded = try workload.recorded(sends, context.newTracePath("send"))
      }
      guard round >= warmUp else { continue }
      overheads.append(recorded.wall - bare.wall)
      cpuOverheads.append(recorded.cpu - bare.cpu)
      recordedUsage = recordedUsage + recorded.usage
      bareUsage = bareUsage + bare.usage
      bareTimes.append(bare.wall)
      ratios.append(recorded.wall / bare.wall)
    }
    let measured = Samples(overheads)
    let samples = max(1, overheads.count)
    let recordedMean = recordedUsage.per(samples)
    let bareMean = bareUsage.per(samples)
    return CaseResult(
      name: name, value: measured.median, unit: "ns", spread: Spread(measured),
      baseline: Baseline(label: "bare send", value: Samples(bareTimes).median, unit: "ns"),
      ratio: Samples(ratios).median, target: target,
      note: "recorded minus bare per send (wall time; main-thread CPU time: "
        + "\(NumberFormat.compact(Samples(cpuOverheads).median)) ns), \(sends) sends per "
        + "sample, \(workload.label); main thread per 1,000 sends, recorded vs bare (means): "
        + "page faults \(NumberFormat.compact(recordedMean.minorFaults * 1000)) vs "
        + "\(NumberFormat.compact(bareMean.minorFaults * 1000)), context switches "
        + "\(NumberFormat.compact(recordedMean.switches * 1000)) vs "
        + "\(NumberFormat.compact(bareMean.switches * 1000)) (involuntary "
        + "\(NumberFormat.compact(recordedMean.involuntarySwitches * 1000)) vs "
        + "\(NumberFormat.compact(bareMean.involuntarySwitches * 1000)))")
  }
}

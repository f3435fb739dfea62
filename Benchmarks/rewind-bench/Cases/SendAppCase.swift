import ComposableCore

/// `send.app`: a bare `send` (no recorder) on the composed `Showcase` fixture (Scope,
/// presentation, forEach, onChange; the todo rows three levels deep) running
/// `ShowcaseScript`, whose toggles, edits and searches start and cancel effects; against a
/// bare `send` of the counter in the same sample pair (the ratio is app / counter).
struct SendAppCase: BenchCase {
  let name = "send.app"
  let target = Target.atMost(2_000)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    var appTimes: [Double] = []
    var counterTimes: [Double] = []
    var ratios: [Double] = []
    let warmUp = 3
    for round in 0..<(warmUp + context.scale.samples) {
      var app = SendTiming(wall: 0, cpu: 0)
      var counter = SendTiming(wall: 0, cpu: 0)
      if round % 2 == 0 {
        app = SendWorkload.app.bare(sends)
        counter = SendWorkload.counter.bare(sends)
      } else {
        counter = SendWorkload.counter.bare(sends)
        app = SendWorkload.app.bare(sends)
      }
      guard round >= warmUp else { continue }
      appTimes.append(app.wall)
      counterTimes.append(counter.wall)
      ratios.append(app.wall / counter.wall)
    }
    let measured = Samples(appTimes)
    return CaseResult(
      name: name, value: measured.median, unit: "ns", spread: Spread(measured),
      baseline: Baseline(label: "send.counter", value: Samples(counterTimes).median, unit: "ns"),
      ratio: Samples(ratios).median, target: target,
      note: "bare send per action (ratio to send.counter: "
        + "\(NumberFormat.compact(Samples(ratios).median))x), \(sends) sends per sample, "
        + SendWorkload.app.label)
  }
}

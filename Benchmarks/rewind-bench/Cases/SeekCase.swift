import TraceKit

/// `trace.seek.1m`: the time to rebuild the state at a random step of the long trace (nearest
/// keyframe plus the diffs after it, hash checked), each seek on a fresh reader so no chunk or
/// state is cached from the one before.
struct SeekCase: BenchCase {
  let name = "trace.seek.1m"
  let target = Target.atMost(1)

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    var random = SplitMix64(seed: 0x5EEC)
    var samples: [Double] = []
    let warmUp = 10
    for index in 0..<(warmUp + context.scale.seeks) {
      let reader = try TraceReader(path: trace.path)
      let step = Int.random(in: 0...trace.steps, using: &random)
      var state = TraceValue.null
      let nanos = try Stopwatch.time { state = try reader.state(at: step) }
      guard case .object = state else {
        throw BenchError("the state at step \(step) is not an object: \(state)")
      }
      if index >= warmUp { samples.append(nanos / 1e6) }
    }
    let measured = Samples(samples)
    return CaseResult(
      name: name, value: measured.median, unit: "ms", spread: Spread(measured),
      target: target,
      note: "\(NumberFormat.grouped(Int64(trace.steps))) steps (\(LongTrace.source)), "
        + "fresh reader per seek")
  }
}

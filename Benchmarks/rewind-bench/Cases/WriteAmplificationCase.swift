import ComposableCore
import CounterFeature
import Foundation
import TraceRecorder

/// `trace.write-amplification.slow-app`: the bytes a recording of a slow app writes to disk,
/// divided by the size of the trace it leaves. The app sends one `Counter` action every 5 ms
/// (so every commit carries only the few steps since the last one); the bytes are this
/// process's `write_bytes − cancelled_write_bytes` from `/proc/self/io` between creating the
/// Recorder and the trace being complete (see Benchmarks/README.md for why this counter).
struct WriteAmplificationCase: BenchCase {
  let name = "trace.write-amplification.slow-app"
  let target = Target.atMost(2)
  static let period: Duration = .milliseconds(5)

  func run(_ context: BenchContext) throws -> CaseResult {
    let steps = context.scale.slowAppSteps
    var ratios: [Double] = []
    var note = ""
    for _ in 0..<max(1, context.scale.traceSamples / 2) {
      let path = context.newTracePath("slow")
      let before = try ProcessIO.read()
      try record(steps: steps, path: path)
      let after = try ProcessIO.read()
      let size = try TraceFile.size(path)
      let disk = after.diskBytes - before.diskBytes
      let handed = after.handedToKernel - before.handedToKernel
      ratios.append(Double(disk) / Double(size))
      note =
        "\(NumberFormat.grouped(disk)) bytes to disk for a "
        + "\(NumberFormat.grouped(Int64(size)))-byte trace of "
        + "\(NumberFormat.grouped(Int64(steps))) steps, 1 per 5 ms (Recorder, Counter); "
        + "\(NumberFormat.grouped(handed)) bytes handed to write()"
      TraceFile.remove(path)
    }
    let measured = Samples(ratios)
    return CaseResult(
      name: name, value: measured.median, unit: "x", spread: Spread(measured), target: target,
      note: note)
  }

  /// Sends one action every 5 ms, on a fixed schedule (a late send does not delay the rest).
  private func record(steps: Int, path: String) throws {
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
    let clock = ContinuousClock()
    let start = clock.now
    for step in 1...steps {
      store.send(CounterScript.action(at: step))
      let wait = clock.now.duration(to: start.advanced(by: Self.period * step))
      if wait > .zero { usleep(UInt32(wait / .microseconds(1))) }
    }
    recorder.finishBlocking()
    if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
  }
}

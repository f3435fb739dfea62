/// Sizes and repetition counts of a run: the full run measures what the issue names (1,000,000
/// steps, 100,000 steps, 10,000 elements); `--quick` shrinks the long traces for a smoke run.
///
/// ```swift
/// Scale.full.longTraceSteps   // 1_000_000
/// Scale.quick.longTraceSteps  // 100_000
/// ```
struct Scale: Sendable {
  /// Steps of the shared long trace (`trace.seek.1m`, `inspector.*.1m`, `memory.record.1m`).
  var longTraceSteps: Int
  /// Steps of `trace.bytes-per-step.counter`.
  var bytesPerStepSteps: Int
  /// Steps per sample of the throughput cases.
  var counterThroughputSteps: Int
  var todosThroughputSteps: Int
  /// Steps of the reflection baseline per sample (each one dumps the whole state twice).
  var reflectionSteps: Int
  /// Steps of the size-vs-snapshots case.
  var snapshotSteps: Int
  /// Sends per sample of the send-overhead case (below the recorder's queue capacity, so the
  /// main actor never waits for the writer and only capture is measured).
  var sendsPerSample: Int
  /// Samples (after warm-up) of the cheap in-process cases.
  var samples: Int
  /// Samples of the cases that record whole traces.
  var traceSamples: Int
  /// Random seeks.
  var seeks: Int
  /// Process launches per inspector command.
  var launches: Int
  /// Steps reconstructed per replay sample.
  var replaySteps: Int

  static let full = Scale(
    longTraceSteps: 1_000_000, bytesPerStepSteps: 100_000,
    counterThroughputSteps: 200_000, todosThroughputSteps: 10_000, reflectionSteps: 5,
    snapshotSteps: 2_000, sendsPerSample: 2_000, samples: 31, traceSamples: 5, seeks: 200,
    launches: 21, replaySteps: 200_000)

  static let quick = Scale(
    longTraceSteps: 100_000, bytesPerStepSteps: 20_000,
    counterThroughputSteps: 20_000, todosThroughputSteps: 1_000, reflectionSteps: 2,
    snapshotSteps: 300, sendsPerSample: 2_000, samples: 7, traceSamples: 2, seeks: 30,
    launches: 5, replaySteps: 20_000)
}

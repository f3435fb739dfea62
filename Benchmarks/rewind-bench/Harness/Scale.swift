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
  /// Steps of `trace.write-amplification.slow-app`, one per 5 ms (10 s in a full run).
  var slowAppSteps: Int
  /// Wall time a throughput sample aims at: a pilot run measures the rate, and the sample's
  /// steps are the rate times this, kept inside the ranges below (so a run takes about the
  /// same time whether the recorder is fast or slow).
  var secondsPerSample: Double
  var counterStepRange: ClosedRange<Int>
  var todosStepRange: ClosedRange<Int>
  var appStepRange: ClosedRange<Int>
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
  /// Whole-trace replays (each one rebuilds every step of the long trace).
  var replaySamples: Int
  /// Keys of the `open.*` script.
  var openKeys: Int
  /// Seconds a case's process may run before it is stopped and the case reported as not run
  /// (a full run's longest case takes about a minute on a quiet machine).
  var caseTimeLimit: Double

  static let full = Scale(
    longTraceSteps: 1_000_000, bytesPerStepSteps: 100_000, slowAppSteps: 2_000,
    secondsPerSample: 1.5,
    counterStepRange: 20_000...2_000_000, todosStepRange: 200...100_000,
    appStepRange: 2_000...1_000_000, reflectionSteps: 5,
    snapshotSteps: 1_000, sendsPerSample: 2_000, samples: 31, traceSamples: 5, seeks: 200,
    launches: 21, replaySamples: 3, openKeys: 200, caseTimeLimit: 1_200)

  static let quick = Scale(
    longTraceSteps: 100_000, bytesPerStepSteps: 20_000, slowAppSteps: 400,
    secondsPerSample: 0.3,
    counterStepRange: 5_000...200_000, todosStepRange: 50...10_000,
    appStepRange: 500...100_000, reflectionSteps: 2,
    snapshotSteps: 260, sendsPerSample: 2_000, samples: 7, traceSamples: 2, seeks: 30,
    launches: 5, replaySamples: 2, openKeys: 40, caseTimeLimit: 300)
}

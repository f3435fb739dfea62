import CounterFeature
import Foundation

/// The long counter trace that the seek, replay and inspector cases share: the fixtures'
/// `Counter` recorded by the real `Recorder`, once per run.
///
/// ```swift
/// let trace = try LongTrace.shared(steps: 1_000_000, in: "/tmp/rewind-bench.x")
/// trace.path   // "/tmp/rewind-bench.x/long-1000000.rewind", recorded by the first caller
/// trace.steps  // 1_000_000
/// ```
struct LongTrace: Sendable {
  let path: String
  /// The last step number (step 0 is the initial state).
  let steps: Int
  let fileSize: Int
  /// How it was made, for the notes.
  static let source = "Recorder, Counter"

  /// The run's trace of `steps` steps in `directory`: the file a case's process recorded
  /// before, or a new recording. It is recorded under another name and renamed when
  /// finished, so a trace under its own name is always whole (cases run one at a time).
  @MainActor
  static func shared(steps: Int, in directory: String) throws -> LongTrace {
    let path = directory + "/long-\(steps).rewind"
    if FileManager.default.fileExists(atPath: path) {
      return LongTrace(path: path, steps: steps, fileSize: try TraceFile.size(path))
    }
    let recording = path + ".recording"
    let trace = try record(steps: steps, path: recording)
    guard rename(recording, path) == 0 else {
      throw BenchError("cannot rename \(recording): \(String(cString: strerror(errno)))")
    }
    return LongTrace(path: path, steps: steps, fileSize: trace.fileSize)
  }

  @MainActor
  private static func record(steps: Int, path: String) throws -> LongTrace {
    let run = try RecordedSession.record(
      Counter(), initialState: Counter.State(), steps: steps, path: path,
      script: CounterScript.action(at:))
    return LongTrace(path: path, steps: steps, fileSize: run.fileSize)
  }
}

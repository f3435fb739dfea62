import CounterFeature
import Foundation

/// The long counter trace that the seek, replay and inspector cases share: the fixtures'
/// `Counter` recorded by the real `Recorder`, once per run.
///
/// ```swift
/// let trace = try LongTrace.record(steps: 1_000_000, path: "/tmp/x/long.rewind")
/// trace.steps  // 1_000_000
/// ```
struct LongTrace: Sendable {
  let path: String
  /// The last step number (step 0 is the initial state).
  let steps: Int
  let fileSize: Int
  /// How it was made, for the notes.
  static let source = "Recorder, Counter"

  @MainActor
  static func record(steps: Int, path: String) throws -> LongTrace {
    let run = try RecordedSession.record(
      Counter(), initialState: Counter.State(), steps: steps, path: path,
      script: CounterScript.action(at:))
    return LongTrace(path: path, steps: steps, fileSize: run.fileSize)
  }
}

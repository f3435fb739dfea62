import Foundation
import TraceKit

/// The long counter trace that the seek, replay and inspector cases share, recorded once per
/// run.
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
  let source: String

  /// Writes `steps` steps of the synthetic counter session with `TraceWriter`.
  static func record(steps: Int, path: String) throws -> LongTrace {
    var trace = SyntheticTrace()
    let writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: trace.state)
    for _ in 0..<steps {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
    }
    try writer.close()
    return LongTrace(
      path: path, steps: steps, fileSize: try TraceFile.size(path),
      source: "TraceWriter, synthetic counter")
  }
}

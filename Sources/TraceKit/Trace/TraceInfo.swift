/// A summary of a trace, read without scanning it (counters kept in the `meta` table and
/// indexed lookups).
///
/// ```swift
/// let info = try reader.info()
/// print(info.stepCount, info.isComplete)  // 1000 true
/// print(info.sentSteps, info.recordedSteps)  // 1000 990 (10 dropped)
/// ```
public struct TraceInfo: Sendable, Hashable {
  public var formatVersion: Int
  public var metadata: TraceMetadata
  /// The number of the last step (step 0 is the initial state, so a trace of n actions has
  /// `stepCount == n`).
  public var stepCount: Int
  public var effectCount: Int
  public var gaps: [TraceGap]
  public var firstWallTime: Double?
  public var lastWallTime: Double?
  /// The size of the database file plus its write-ahead log, if any.
  public var fileSize: Int
  /// Compressed bytes of the step payload chunks.
  public var payloadBytes: Int
  /// Uncompressed bytes of the step payload chunks.
  public var payloadRawBytes: Int
  public var chunkCount: Int
  public var keyframeCount: Int
  /// Whether the writer closed the trace cleanly.
  public var isComplete: Bool
  /// Whether the process writing the trace still holds it open: false once it closed the
  /// trace or died (its lock goes with it), nil when this reader cannot tell.
  public var isWriterAlive: Bool?

  /// A trace that is not complete and whose writer is gone: it will never grow again.
  public var isWriterGone: Bool { !isComplete && isWriterAlive == false }

  /// Steps dropped by the recorder (gaps), in total.
  public var droppedSteps: Int { gaps.reduce(0) { $0 + $1.dropped } }

  /// The actions the store reduced: the last step number, or the end of a gap after it
  /// (steps dropped after the last recorded one, when the recording finished).
  public var sentSteps: Int {
    gaps.reduce(stepCount) { max($0, $1.afterStep + $1.dropped) }
  }

  /// The actions the trace holds (step 0, the initial state, is not one).
  public var recordedSteps: Int { sentSteps - droppedSteps }

  /// Uncompressed over compressed payload size (0 when there is no payload).
  public var compressionRatio: Double {
    payloadBytes == 0 ? 0 : Double(payloadRawBytes) / Double(payloadBytes)
  }
}

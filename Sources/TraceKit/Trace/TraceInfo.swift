/// A summary of a trace, read without scanning it (counters kept in the `meta` table and
/// indexed lookups).
///
/// ```swift
/// let info = try reader.info()
/// print(info.stepCount, info.isComplete)  // 1000 true
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

  /// Uncompressed over compressed payload size (0 when there is no payload).
  public var compressionRatio: Double {
    payloadBytes == 0 ? 0 : Double(payloadRawBytes) / Double(payloadBytes)
  }
}

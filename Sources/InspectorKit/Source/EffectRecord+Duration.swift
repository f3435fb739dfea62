import TraceKit

extension EffectRecord {
  /// How long it ran, when both ends are known and in order (a damaged trace may hold an end
  /// before the start).
  ///
  /// ```swift
  /// EffectRecord(id: id, startedByStep: 3, startNanos: 1_000, endNanos: 4_000).durationNanos
  /// // 3_000
  /// ```
  package var durationNanos: UInt64? {
    guard let start = startNanos, let end = endNanos, end >= start else { return nil }
    return end - start
  }
}

import ComposableCore
import TraceKit

extension DependencyValueRead {
  /// The read as the trace stores it: `uuid` (text), `date` (seconds since 2001), `random`
  /// (the 64 bits), `clock` (seconds since the first `now` of that clock type).
  ///
  /// ```swift
  /// DependencyValueRead.random(7).traceRead  // DependencyRead(key: "random", value: .int(7))
  /// ```
  var traceRead: DependencyRead {
    switch self {
    case .uuid(let value):
      DependencyRead(key: "uuid", value: .string(value.uuidString))
    case .date(let value):
      DependencyRead(key: "date", value: .double(value.timeIntervalSinceReferenceDate))
    case .random(let value):
      DependencyRead(
        key: "random", value: value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value))
    case .clockNow(let offset):
      DependencyRead(
        key: "clock",
        value: .double(
          Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18))
    }
  }
}

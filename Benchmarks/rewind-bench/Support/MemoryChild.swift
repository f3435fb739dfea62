import Foundation
import TraceKit

/// The child process of `memory.record.1m`: runs the steps, recorded or not, and prints its
/// resident memory before them and its peak during them.
///
/// ```text
/// $ rewind-bench --child memory recorded 1000000 /tmp/m.rewind
/// before=9437184 peak=23068672
/// ```
enum MemoryChild {
  enum Mode: String {
    case recorded
    case bare
  }

  struct Report {
    var before: Int
    var peak: Int

    init?(parsing text: String) {
      var values: [String: Int] = [:]
      for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = field.split(separator: "=")
        if parts.count == 2, let number = Int(parts[1]) { values[String(parts[0])] = number }
      }
      guard let before = values["before"], let peak = values["peak"] else { return nil }
      self.before = before
      self.peak = peak
    }
  }

  static let source = "TraceWriter, synthetic counter"

  /// `arguments`: mode, steps, trace path. Returns the report line.
  static func run(_ arguments: [String]) throws -> String {
    guard arguments.count == 3, let mode = Mode(rawValue: arguments[0]),
      let steps = Int(arguments[1])
    else {
      throw BenchError("usage: --child memory recorded|bare STEPS FILE")
    }
    var trace = SyntheticTrace()
    let writer =
      mode == .recorded
      ? try TraceWriter(path: arguments[2], metadata: SyntheticTrace.metadata,
        initialState: trace.state)
      : nil
    resetPeak()
    let before = try ResidentMemory.current()
    var checksum: UInt64 = 0
    for _ in 0..<steps {
      let (record, state) = trace.next()
      if let writer {
        try writer.append(record, state: state)
      } else {
        checksum &+= record.stateHash
      }
    }
    try writer?.close()
    let peak = try ResidentMemory.peak()
    return "before=\(before) peak=\(peak) checksum=\(checksum)"
  }

  /// Sets VmHWM back to the current RSS (Linux ≥ 4.0), so start-up allocations that were freed
  /// do not count as the peak.
  private static func resetPeak() {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return }
    fputs("5", file)
    fclose(file)
  }
}

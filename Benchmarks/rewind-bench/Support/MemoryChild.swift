import ComposableCore
import CounterFeature
import Foundation
import TraceRecorder

/// The child process of `memory.record.1m`: sends the counter script to a store, recorded or
/// not, and prints its resident memory before the sends and its peak during them (the peak
/// read after `finish()`, so the writer's whole life counts).
///
/// ```text
/// $ rewind-bench --child memory recorded 1000000 /tmp/m.rewind
/// before=9437184 peak=23068672
/// ```
@MainActor
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

  static let source = "Recorder, Counter"

  /// `arguments`: mode, steps, trace path. Returns the report line.
  static func run(_ arguments: [String]) throws -> String {
    guard arguments.count == 3, let mode = Mode(rawValue: arguments[0]),
      let steps = Int(arguments[1]), steps >= 1
    else {
      throw BenchError("usage: --child memory recorded|bare STEPS FILE")
    }
    let recorder = try Recorder(path: arguments[2])
    let store = Store(initialState: Counter.State()) {
      if mode == .recorded {
        Counter().recording(to: recorder)
      } else {
        Counter()
      }
    }
    resetPeak()
    let before = try ResidentMemory.current()
    for step in 1...steps { store.send(CounterScript.action(at: step)) }
    if mode == .recorded {
      recorder.finishBlocking()
      if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
    }
    let peak = try ResidentMemory.peak()
    return "before=\(before) peak=\(peak) count=\(store.withState(\.count))"
  }

  /// Sets VmHWM back to the current RSS (Linux ≥ 4.0), so start-up allocations that were freed
  /// do not count as the peak.
  private static func resetPeak() {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return }
    fputs("5", file)
    fclose(file)
  }
}

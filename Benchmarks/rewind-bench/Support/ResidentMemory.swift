import Foundation

/// This process's resident memory, from `/proc/self/status`.
///
/// ```swift
/// let before = try ResidentMemory.current()   // VmRSS, bytes
/// // … work …
/// let peak = try ResidentMemory.peak()        // VmHWM, bytes
/// ```
enum ResidentMemory {
  /// Resident set size now (`VmRSS`).
  static func current() throws(BenchError) -> Int { try field("VmRSS") }

  /// The highest resident set size so far (`VmHWM`).
  static func peak() throws(BenchError) -> Int { try field("VmHWM") }

  private static func field(_ name: String) throws(BenchError) -> Int {
    let status: String
    do {
      status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    } catch {
      throw BenchError("cannot read /proc/self/status: \(error)")
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      // "VmHWM:\t   12345 kB"
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if parts.count >= 3, let kilobytes = Int(parts[1]), parts[2] == "kB" {
        return kilobytes * 1024
      }
    }
    throw BenchError("/proc/self/status has no readable \(name) line")
  }
}

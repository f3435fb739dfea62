import Foundation

/// What a reader of the numbers needs to know about the run: the commit, the processors and
/// how loaded they were (the machines are shared, and load moves every number).
///
/// ```text
/// commit 4752490, 2 CPUs, load average 3.91 4.20 4.35 at start
/// ```
enum MachineInfo {
  static var summary: String {
    let commit = ProcessInfo.processInfo.environment["REWIND_BENCH_COMMIT"] ?? "unknown"
    let cpus = ProcessInfo.processInfo.activeProcessorCount
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
      .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
    return "commit \(commit), \(cpus) CPUs, load average \(load) at start"
  }
}

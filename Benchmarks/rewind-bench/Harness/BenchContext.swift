import Foundation

/// What every case of one run shares: sizes, a scratch directory, the binaries it spawns and
/// the long trace (built once, on first use).
@MainActor
final class BenchContext {
  let scale: Scale
  let options: BenchOptions
  /// A fresh directory for this run's trace files, removed at the end.
  let directory: String
  /// This executable, for cases that measure in a child process.
  let executablePath: String
  let inspectorPath: String
  /// `rewind-demo`, next to this executable (`replay.chaos.100` records with it).
  let demoPath: String
  private var longTrace: LongTrace?
  private var shortTrace: LongTrace?
  private var fileCounter = 0

  init(options: BenchOptions) throws(BenchError) {
    self.options = options
    scale = options.quick ? .quick : .full
    executablePath = try Self.ownExecutablePath()
    inspectorPath = options.inspectorPath
      ?? (executablePath as NSString).deletingLastPathComponent + "/inspector"
    demoPath = (executablePath as NSString).deletingLastPathComponent + "/rewind-demo"
    var template = Array(
      ((NSTemporaryDirectory() as NSString).appendingPathComponent("rewind-bench.XXXXXX"))
        .utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
  }

  /// A path in the scratch directory that no file uses yet.
  func newTracePath(_ label: String) -> String {
    fileCounter += 1
    return directory + "/\(fileCounter)-\(label).rewind"
  }

  /// The long counter trace (1,000,000 steps in a full run), recorded on first use.
  func longCounterTrace() throws -> LongTrace {
    if let longTrace { return longTrace }
    let built = try LongTrace.record(steps: scale.longTraceSteps, path: newTracePath("long"))
    longTrace = built
    return built
  }

  /// The same counter trace with 1,000 steps (the `open.memory.1m` baseline).
  func shortCounterTrace() throws -> LongTrace {
    if let shortTrace { return shortTrace }
    let built = try LongTrace.record(steps: 1_000, path: newTracePath("short"))
    shortTrace = built
    return built
  }

  func removeFiles() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private static func ownExecutablePath() throws(BenchError) -> String {
    do {
      return try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    } catch {
      throw BenchError("cannot find this executable through /proc/self/exe: \(error)")
    }
  }
}

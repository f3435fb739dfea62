import Foundation

/// What every case of one run shares: sizes, a scratch directory, the binaries it spawns and
/// the long traces (recorded by the first case that needs them, then read by the others).
///
/// The parent process makes the run's scratch directory; each case runs in a process of its
/// own (`CaseProcess`), whose context works in a subdirectory named after the case and finds
/// the long traces in the run's directory.
@MainActor
final class BenchContext {
  let scale: Scale
  let options: BenchOptions
  /// The run's scratch directory, removed at the end of the run.
  let runDirectory: String
  /// Where this process writes its own files: the run's directory in the parent, the
  /// case's subdirectory in a case's process.
  let directory: String
  /// This executable, for cases that measure in a child process.
  let executablePath: String
  let inspectorPath: String
  /// `rewind-demo`, next to this executable (`replay.chaos.100` records with it).
  let demoPath: String
  private var fileCounter = 0

  /// The parent's context: a fresh scratch directory.
  convenience init(options: BenchOptions) throws(BenchError) {
    var template = Array(
      ((NSTemporaryDirectory() as NSString).appendingPathComponent("rewind-bench.XXXXXX"))
        .utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    let run = String(cString: made)
    try self.init(options: options, runDirectory: run, directory: run)
  }

  /// A case's context, in the run directory the parent made.
  convenience init(options: BenchOptions, runDirectory: String, caseName: String)
    throws(BenchError)
  {
    let directory = runDirectory + "/" + caseName
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: false)
    } catch {
      throw BenchError("cannot create \(directory): \(error)")
    }
    try self.init(options: options, runDirectory: runDirectory, directory: directory)
  }

  private init(options: BenchOptions, runDirectory: String, directory: String)
    throws(BenchError)
  {
    self.options = options
    scale = options.quick ? .quick : .full
    self.runDirectory = runDirectory
    self.directory = directory
    executablePath = try Self.ownExecutablePath()
    inspectorPath = options.inspectorPath
      ?? (executablePath as NSString).deletingLastPathComponent + "/inspector"
    demoPath = (executablePath as NSString).deletingLastPathComponent + "/rewind-demo"
  }

  /// A path in the scratch directory that no file uses yet.
  func newTracePath(_ label: String) -> String {
    fileCounter += 1
    return directory + "/\(fileCounter)-\(label).rewind"
  }

  /// The long counter trace (1,000,000 steps in a full run), recorded on first use.
  func longCounterTrace() throws -> LongTrace {
    try LongTrace.shared(steps: scale.longTraceSteps, in: runDirectory)
  }

  /// The same counter trace with 1,000 steps (the `open.memory.1m` baseline).
  func shortCounterTrace() throws -> LongTrace {
    try LongTrace.shared(steps: 1_000, in: runDirectory)
  }

  func removeFiles() {
    try? FileManager.default.removeItem(atPath: runDirectory)
  }

  private static func ownExecutablePath() throws(BenchError) -> String {
    do {
      return try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    } catch {
      throw BenchError("cannot find this executable through /proc/self/exe: \(error)")
    }
  }
}

import Foundation
import Glibc
import Locking

/// Starts other programs: timed launches with output discarded (`posix_spawn` + `waitpid`, so
/// the measurement holds only the process's own life, no run loop or pipe reading), launches
/// that print where this process prints (a case's own process), and launches whose output is
/// kept (checks and child measurements).
///
/// ```swift
/// let run = try ProcessLauncher.timed("/bin/true", [])
/// run.status  // 0
/// run.nanos   // ≈ 600_000 on these machines
/// ```
enum ProcessLauncher {
  struct TimedRun {
    var status: Int32
    var nanos: Double
  }

  struct CapturedRun {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `path` with `arguments`, stdout and stderr sent to /dev/null; the wall time from
  /// just before the spawn to just after the exit was reaped.
  static func timed(_ path: String, _ arguments: [String]) throws(BenchError) -> TimedRun {
    try spawnAndWait(path, arguments, silenced: true)
  }

  /// Runs `path` with this process's stdout and stderr, and returns its exit status. A process
  /// still running after `timeLimit` seconds is killed, and that is the error.
  static func inheriting(_ path: String, _ arguments: [String], timeLimit: Double)
    throws(BenchError) -> Int32
  {
    try spawnAndWait(path, arguments, silenced: false, timeLimit: timeLimit).status
  }

  /// Without a time limit, waits in `waitpid` (nothing of this process wakes up while a timed
  /// launch runs); with one, looks every 20 ms.
  private static func spawnAndWait(
    _ path: String, _ arguments: [String], silenced: Bool, timeLimit: Double? = nil
  ) throws(BenchError) -> TimedRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if silenced {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    let argv = ([path] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = Stopwatch.now()
    let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer in
      posix_spawn(&pid, path, &actions, nil, buffer.baseAddress!, environ)
    }
    guard spawned == 0 else {
      throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    let deadline = timeLimit.map { start + UInt64($0 * 1e9) }
    while true {
      let reaped = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
      if reaped == pid { break }
      if reaped < 0 {
        guard errno == EINTR else {
          throw BenchError("waiting for \(path) failed: \(String(cString: strerror(errno)))")
        }
      } else if let deadline, let timeLimit {
        guard Stopwatch.now() < deadline else {
          kill(pid, SIGKILL)
          while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
          throw BenchError(
            "still running after \(NumberFormat.compact(timeLimit)) s, so it was stopped")
        }
        usleep(20_000)
      }
    }
    let nanos = Double(Stopwatch.now() - start)
    return TimedRun(status: exitStatus(status), nanos: nanos)
  }

  /// Runs `path` and keeps what it printed.
  static func captured(_ path: String, _ arguments: [String]) throws(BenchError) -> CapturedRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    do {
      try process.run()
    } catch {
      throw BenchError("cannot start \(path): \(error)")
    }
    // Read stderr on another thread while this one reads stdout, so a child that fills one
    // pipe's buffer never blocks.
    let errorData = DataBox()
    let done = DispatchSemaphore(value: 0)
    let errorHandle = err.fileHandleForReading
    DispatchQueue.global().async {
      errorData.set(errorHandle.readDataToEndOfFile())
      done.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return CapturedRun(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errorData.get(), as: UTF8.self))
  }

  /// The exit code, or 128 + the signal number for a process killed by a signal (as shells
  /// report it).
  private static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}

/// Bytes handed from a reading thread to the launching one.
private final class DataBox: Sendable {
  private let data = Lock(Data())

  func set(_ value: Data) { data.withLock { $0 = value } }
  func get() -> Data { data.withLock { $0 } }
}

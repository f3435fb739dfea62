import Foundation

/// A child process whose stdout lines a test can wait for, and which it can kill.
///
/// ```swift
/// let child = try ChildProcess(executable: path, arguments: ["t.rewind", "100", "10"])
/// let line = try child.waitForLine(timeout: 60) { $0.hasPrefix("committed") }
/// child.kill()
/// ```
public final class ChildProcess: @unchecked Sendable {
  private let process = Process()
  private let output = Pipe()
  private let input = Pipe()
  private let lock = NSLock()
  private var lines: [String] = []
  private var partial = ""
  private var ended = false

  public init(executable: String, arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = output
    process.standardInput = input
    process.standardError = FileHandle.standardError
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      self?.receive(handle.availableData)
    }
    try process.run()
  }

  deinit {
    output.fileHandleForReading.readabilityHandler = nil
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  private func receive(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    if data.isEmpty {
      ended = true
      return
    }
    partial += String(decoding: data, as: UTF8.self)
    while let newline = partial.firstIndex(of: "\n") {
      lines.append(String(partial[..<newline]))
      partial = String(partial[partial.index(after: newline)...])
    }
  }

  /// Every complete line received so far.
  public var receivedLines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }

  /// Waits for a line that satisfies `predicate` (checking lines already received too).
  public func waitForLine(
    timeout: TimeInterval, where predicate: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let line = receivedLines.last(where: predicate) { return line }
      if !process.isRunning, let line = receivedLines.last(where: predicate) { return line }
      usleep(2_000)
    }
    throw Timeout(description: "no matching line within \(timeout) s; got \(receivedLines)")
  }

  /// Sends one line to the child's stdin.
  public func send(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// Kills the child with SIGKILL and waits for it to end.
  public func kill() {
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Waits for the child to exit; returns its status.
  public func waitForExit() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }

  public struct Timeout: Error, CustomStringConvertible {
    public var description: String
  }
}

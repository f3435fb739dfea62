import Foundation
import TestSupport

/// A `rewind-demo` process left running, whose stdout a test can wait on and which it can
/// signal (TestSupport's ChildProcess can only SIGKILL).
///
/// ```swift
/// let child = try DemoChild(["run", "todos", "--out", path])
/// try child.waitForLine { $0.hasPrefix("Recording") }
/// child.signal(SIGINT)
/// child.waitForExit()  // 0
/// ```
final class DemoChild: @unchecked Sendable {
  private let process = Process()
  private let output = Pipe()
  private let lock = NSLock()
  private var text = ""

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("rewind-demo"))
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.lock()
      self.text += String(decoding: data, as: UTF8.self)
      self.lock.unlock()
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

  /// The complete lines printed so far.
  var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map(String.init)
  }

  /// Waits (generously: this bounds a hang, it measures nothing) for a line.
  @discardableResult
  func waitForLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) throws
    -> String
  {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let line = lines.first(where: predicate) { return line }
      usleep(5_000)
    }
    throw Timeout(description: "no matching line within \(timeout) s: \(lines)")
  }

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  /// Sends a signal.
  func signal(_ number: Int32) {
    Foundation.kill(process.processIdentifier, number)
  }

  /// Waits for the process to end and for its last output; returns its exit status.
  func waitForExit() -> Int32 {
    process.waitUntilExit()
    // The pipe's last bytes may still be on their way to the handler.
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, !text.hasSuffix("\n") || lines.count < 2 {
      usleep(5_000)
    }
    return process.terminationStatus
  }
}

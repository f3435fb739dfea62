import Foundation
import TestSupport
import XCTest

/// `rewind-demo run … --live` as a process of its own, listening in a runtime directory of the
/// test's (`XDG_RUNTIME_DIR`), and the built `inspector` pointed at the same directory.
///
/// ```swift
/// let demo = try LiveDemo(["counter", "--steps", "3"], runtime: directory)
/// try demo.waitUntilIdle()
/// let output = try demo.inspector(["pause", demo.pidText])   // "paused after step 4"
/// ```
final class LiveDemo {
  let running: BuiltProducts.Running
  let runtime: URL
  /// The demo's working directory (its trace files, dumps).
  let workingDirectory: URL

  /// Starts `rewind-demo run SCENARIO --live` with `arguments` after the scenario; `asUser`
  /// runs it as that uid (and its gid) through `setpriv`.
  init(
    _ arguments: [String], runtime: URL, workingDirectory: URL, asUser user: UInt32? = nil
  ) throws {
    self.runtime = runtime
    self.workingDirectory = workingDirectory
    let demo = try BuiltProducts.executable("rewind-demo")
    let command = ["run"] + arguments.prefix(1) + ["--live"] + arguments.dropFirst()
    if let user {
      running = try BuiltProducts.start(
        "/usr/bin/setpriv",
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", demo] + command,
        in: workingDirectory, environment: ["XDG_RUNTIME_DIR": runtime.path])
    } else {
      running = try BuiltProducts.start(
        demo, command, in: workingDirectory, environment: ["XDG_RUNTIME_DIR": runtime.path])
    }
  }

  deinit {
    if running.process.isRunning {
      running.process.terminate()
      running.process.waitUntilExit()
    }
  }

  var pid: Int32 { running.process.processIdentifier }
  var pidText: String { String(pid) }

  /// The socket the demo listens on (through setpriv, the demo is setpriv's process: it
  /// executes the demo in place).
  var socketPath: String { runtime.path + "/rewind/\(pid).sock" }

  /// Waits (generously: this bounds a hang, it measures nothing) for a line on stdout.
  @discardableResult
  func waitForLine(_ prefix: String, timeout: TimeInterval = 60) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let line = running.currentOut.split(separator: "\n").first(where: {
        $0.hasPrefix(prefix)
      }) {
        return String(line)
      }
      if !running.process.isRunning { break }
      usleep(5_000)
    }
    throw Timeout(
      description: "no line '\(prefix)…' within \(timeout) s: \(running.output())")
  }

  /// Waits until the scripted actions were sent and their effects are over.
  func waitUntilIdle() throws {
    try waitForLine("Sent ")
  }

  /// Runs the built inspector against the demo's runtime directory.
  func inspector(_ arguments: [String], asUser user: UInt32? = nil) throws
    -> BuiltProducts.Output
  {
    let environment = ["XDG_RUNTIME_DIR": runtime.path, "COLUMNS": "100"]
    if let user {
      return try BuiltProducts.run(
        "/usr/bin/setpriv",
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups",
          try BuiltProducts.executable("inspector")] + arguments,
        in: workingDirectory, environment: environment)
    }
    return try BuiltProducts.run(
      "inspector", arguments, in: workingDirectory, environment: environment)
  }

  /// Starts the built inspector without waiting for it.
  func startInspector(_ arguments: [String]) throws -> BuiltProducts.Running {
    try BuiltProducts.start(
      "inspector", arguments, in: workingDirectory,
      environment: ["XDG_RUNTIME_DIR": runtime.path, "COLUMNS": "100"])
  }

  /// Sends a signal and waits for the demo to end; returns what it printed.
  func stop(_ signal: Int32 = SIGINT) -> BuiltProducts.Output {
    kill(pid, signal)
    running.process.waitUntilExit()
    return running.output()
  }

  /// The demo's last step, as `inspector ps --json` reports it.
  func lastStep() throws -> Int {
    let output = try inspector(["ps", "--json"])
    let apps = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [[String: Any]]
    guard let app = apps?.first(where: { $0["pid"] as? Int == Int(pid) }),
      let steps = app["steps"] as? Int
    else { throw Timeout(description: "ps does not list \(pid): \(output)") }
    return steps
  }

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }
}

/// Waits until `condition` holds (generously: the wait bounds a hang, it measures nothing).
func waitUntil(
  _ what: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line,
  _ condition: () throws -> Bool
) rethrows {
  let deadline = Date().addingTimeInterval(timeout)
  while try !condition() {
    if Date() > deadline {
      XCTFail("timed out waiting for \(what)", file: file, line: line)
      return
    }
    usleep(10_000)
  }
}

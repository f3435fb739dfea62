import Foundation

/// The package's built executables, found from the test bundle (SwiftPM puts the `.xctest`
/// bundle in `.build/<configuration>` next to the executables it built), and run the way a
/// user runs them: as processes, with their output captured.
///
/// ```swift
/// let output = try BuiltProducts.run("inspector", ["info", "t.rewind"], in: directory)
/// output.status  // 0
/// ```
public enum BuiltProducts {
  /// What a finished process printed and how it exited.
  public struct Output: Equatable, Sendable {
    public var out: String
    public var err: String
    public var status: Int32

    public init(out: String, err: String, status: Int32) {
      self.out = out
      self.err = err
      self.status = status
    }
  }

  /// The directory that holds the test bundle and the executables.
  public static var directory: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    // Linux runs the test bundle as an executable: its own path is the bundle.
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return executable.deletingLastPathComponent()
  }

  /// The path of a built executable, or an error that says how to build it.
  public static func executable(_ name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw MissingExecutable(name: name, searched: directory.path)
    }
    return url.path
  }

  /// Runs `name` (a built product, or an absolute path) with `arguments` in `directory` and
  /// waits for it. `NO_COLOR` and `COLUMNS` are cleared, then `environment` is applied.
  public static func run(
    _ name: String, _ arguments: [String], in directory: URL,
    environment: [String: String] = ["COLUMNS": "80"]
  ) throws -> Output {
    let running = try start(name, arguments, in: directory, environment: environment)
    running.process.waitUntilExit()
    return running.output()
  }

  /// Starts `name` without waiting; its output goes to temporary files (no pipe can fill up
  /// and block it), removed when the `Running` value goes away.
  public static func start(
    _ name: String, _ arguments: [String], in directory: URL,
    environment: [String: String] = ["COLUMNS": "80"]
  ) throws -> Running {
    let binary = name.hasPrefix("/") ? name : try executable(name)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["COLUMNS"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-\(URL(fileURLWithPath: binary).lastPathComponent)-\(UUID())")
    let outURL = base.appendingPathExtension("out")
    let errURL = base.appendingPathExtension("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let running = Running(process: process, outURL: outURL, errURL: errURL)
    try process.run()
    return running
  }

  /// A started process and the files its output goes to.
  public final class Running {
    public let process: Process
    let outURL: URL
    let errURL: URL

    init(process: Process, outURL: URL, errURL: URL) {
      self.process = process
      self.outURL = outURL
      self.errURL = errURL
    }

    deinit {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }

    /// What the process has printed on stdout so far.
    public var currentOut: String {
      (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    }

    /// What the process printed, and its status (call after it exited).
    public func output() -> Output {
      Output(
        out: currentOut, err: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
        status: process.terminationStatus)
    }
  }

  public struct MissingExecutable: Error, CustomStringConvertible {
    public var name: String
    public var searched: String
    public var description: String {
      "executable '\(name)' not found in \(searched): build it first with "
        + "`swift build --build-tests` (or `swift build --product \(name)`)"
    }
  }
}

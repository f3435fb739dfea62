import Foundation
import XCTest

/// Runs the package's built executables (`inspector`, `inspector-test-writer`) the way a user
/// would: as processes, with their output captured.
enum BuiltProducts {
  struct Output: Equatable {
    var out: String
    var err: String
    var status: Int32
  }

  /// Runs `name` with `arguments` in `directory` and waits for it.
  static func run(
    _ name: String, _ arguments: [String], in directory: URL,
    environment: [String: String] = ["COLUMNS": "80"]
  ) throws -> Output {
    let process = try start(name, arguments, in: directory, environment: environment)
    process.process.waitUntilExit()
    return process.output()
  }

  /// A started process whose output goes to files (no pipe can fill up and block it).
  final class Running {
    let process: Process
    let outURL: URL
    let errURL: URL

    init(process: Process, outURL: URL, errURL: URL) {
      self.process = process
      self.outURL = outURL
      self.errURL = errURL
    }

    var currentOut: String {
      (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    }

    func output() -> Output {
      Output(
        out: currentOut, err: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
        status: process.terminationStatus)
    }
  }

  static func start(
    _ name: String, _ arguments: [String], in directory: URL,
    environment: [String: String] = ["COLUMNS": "80"]
  ) throws -> Running {
    let binary = name.hasPrefix("/") ? URL(fileURLWithPath: name) : try locate(name)
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["COLUMNS"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let id = UUID().uuidString
    let base = binary.lastPathComponent
    let outURL = directory.appendingPathComponent(".\(base)-\(id).out")
    let errURL = directory.appendingPathComponent(".\(base)-\(id).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    return Running(process: process, outURL: outURL, errURL: errURL)
  }

  /// The built executable, or an error that says where it was looked for.
  static func locate(_ name: String) throws -> URL {
    var directories: [URL] = []
    for bundle in Bundle.allBundles {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
      directories.append(bundle.bundleURL)
    }
    if let executable = Bundle.main.executableURL {
      directories.append(executable.deletingLastPathComponent())
    }
    for directory in directories {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw MissingBinary(
      name: name, searched: directories.map(\.path))
  }

  struct MissingBinary: Error, CustomStringConvertible {
    var name: String
    var searched: [String]

    var description: String {
      "the built '\(name)' executable is missing (looked in \(searched.joined(separator: ", ")));"
        + " build it first: swift build --build-tests"
    }
  }
}

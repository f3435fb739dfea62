import Foundation
import TestSupport

/// Runs the built `rewind-demo` and collects what it printed and how it exited.
///
/// ```swift
/// let result = try DemoProcess.run(["list"])
/// result.status  // 0
/// ```
struct DemoProcess: Equatable {
  var status: Int32
  var stdout: String
  var stderr: String

  static func run(_ arguments: [String], in directory: URL? = nil) throws -> DemoProcess {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("rewind-demo"))
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes to the end before waiting, so a full pipe never blocks the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
      errorData = errors.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return DemoProcess(
      status: process.terminationStatus,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self)
    )
  }
}

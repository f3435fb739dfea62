import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit

/// Tests of the interactive view without a terminal: a session on the sample trace (written
/// by the `inspector-test-writer` process, the same as the end-to-end tests read), driven by
/// scripted keys, its frames compared with `Interactive/Snapshots/<name>.txt` (the text, then
/// the role of every cell).
class OpenSessionTestCase: XCTestCase {
  var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory = nil
  }

  /// The sample session (12 steps unless `options` say otherwise) in a file, written once
  /// per test and options.
  func sampleTrace(_ options: [String] = []) throws -> String {
    let name = (["sample"] + options).joined(separator: "-") + ".rewind"
    let path = directory.path(name)
    if FileManager.default.fileExists(atPath: path) { return path }
    let written = try BuiltProducts.run(
      "inspector-test-writer", [name] + options, in: directory.url)
    XCTAssertEqual(written.status, 0, "inspector-test-writer failed: \(written.err)")
    return path
  }

  func session(
    _ options: [String] = [], step: Int? = nil, width: Int = 100, height: Int = 24
  ) throws -> OpenSession {
    let source = try TraceFileSource(path: try sampleTrace(options))
    let session = try OpenSession(source: source, step: step)
    session.resize(width: width, height: height)
    return session
  }

  func assertFrame(
    _ session: OpenSession, named name: String, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    // The snapshots live beside the test file that asks.
    assertSnapshot(
      try session.frame(), named: name, in: snapshotDirectory("\(file)"), file: file, line: line)
  }
}

extension OpenSession {
  /// Presses the keys of a script (`Key.script`).
  func press(_ script: String) throws {
    for key in Key.script(script) { try handle(key) }
  }

  /// Runs the idle work (timeline and tree counts) to the end.
  func finishWork() throws {
    while try work(until: .now.advanced(by: .seconds(5))) {}
  }

  /// The frame as a snapshot holds it: the text, then the roles.
  func frame() throws -> String {
    let grid = try screen()
    return grid.text + "--- roles\n" + grid.styleLines.map { $0 + "\n" }.joined()
  }
}

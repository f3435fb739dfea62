import Foundation
import TestSupport
@testable import TraceRecorder
import XCTest

final class SystemRandomWatchTests: XCTestCase {
  func testCallsForSystemRandomnessAreCountedOnlyWhileCounting() {
    let (counted, status) = SystemRandomWatch.run { watch -> (SystemRandomWatch.Use, Bool) in
      _ = Int.random(in: 0..<6)
      let before = watch.use
      watch.counting = true
      _ = Int.random(in: 0..<6)
      _ = [1, 2, 3].shuffled()
      _ = UUID()
      watch.counting = false
      _ = Int.random(in: 0..<6)
      return (watch.use - before, before.isEmpty)
    }
    XCTAssertEqual(status, .watched)
    XCTAssertTrue(counted.1, "counted before counting was on")
    // Int.random draws at least once, shuffled() twice for three elements; Foundation's UUID()
    // opens /dev/urandom.
    XCTAssertGreaterThanOrEqual(counted.0.getrandom, 3)
    XCTAssertEqual(counted.0.deviceOpens, 1)
  }

  func testOtherFilesAndSystemCallsAreNotCounted() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("notes.txt")
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    let (use, _) = SystemRandomWatch.run { watch in
      watch.counting = true
      _ = try? String(contentsOfFile: path, encoding: .utf8)
      _ = FileManager.default.fileExists(atPath: path)
      _ = Date()
      _ = ProcessInfo.processInfo.processIdentifier
      watch.counting = false
      return watch.use
    }
    XCTAssertEqual(use, SystemRandomWatch.Use())
  }

  func testBothThreadsHaveEndedWhenTheWorkReturns() {
    for _ in 0..<20 {
      let names = SystemRandomWatch.run { _ in
        (ProcessThreads.named("rewind-replay"), ProcessThreads.named("rewind-rndwatch"))
      }.0
      XCTAssertEqual(names.0, 1)
      XCTAssertEqual(names.1, 1)
    }
    XCTAssertEqual(ProcessThreads.named("rewind-replay"), 0)
    XCTAssertEqual(ProcessThreads.named("rewind-rndwatch"), 0)
  }
}

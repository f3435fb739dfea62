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

  /// The work runs on the replay thread with one supervisor of its own, and both are gone
  /// once `run` returns. Threads are followed by id, not counted by name: for a moment after a
  /// join returns, the kernel still lists the thread that ended, so the previous round's
  /// supervisor can still be listed when the next round looks.
  @MainActor
  func testBothThreadsHaveEndedWhenTheWorkReturns() async {
    for round in 1...20 {
      let supervisorsBefore = ProcessThreads.ids(named: "rewind-rndwatch")
      let (replay, replayName, supervisors) = SystemRandomWatch.run { _ in
        let replay = ProcessThreads.currentID
        return (replay, ProcessThreads.name(of: replay),
          ProcessThreads.ids(named: "rewind-rndwatch").subtracting(supervisorsBefore))
      }.0
      XCTAssertEqual(replayName, "rewind-replay", "round \(round)")
      XCTAssertEqual(supervisors.count, 1, "round \(round)")
      let ended = await eventually {
        !ProcessThreads.isListed(replay) && !supervisors.contains(where: ProcessThreads.isListed)
      }
      XCTAssertTrue(ended, "round \(round): a thread of the watch is still running")
    }
  }
}

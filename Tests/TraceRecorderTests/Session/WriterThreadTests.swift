import Foundation
import Locking
import Synchronization
import XCTest

@testable import TraceRecorder

/// The recorder's joinable threads: a recording's end and its Recorder's `deinit` may join the
/// same writer thread at once, and each must return only once the thread is gone.
final class WriterThreadTests: XCTestCase {
  func testEveryJoinMadeAtOnceReturnsOnlyOnceTheThreadsBodyEnded() throws {
    let release = DispatchSemaphore(value: 0)
    let bodyEnded = Atomic<Bool>(false)
    let thread = try WriterThread(name: "rewind-join-test") {
      release.wait()
      bodyEnded.store(true, ordering: .releasing)
    }
    XCTAssertFalse(thread.isJoined)
    let joiners = 3
    let sawEnded = Lock<[Bool]>([])
    let started = DispatchGroup()
    let returned = DispatchGroup()
    for _ in 0..<joiners {
      started.enter()
      returned.enter()
      Thread.detachNewThread {
        started.leave()
        thread.join()
        sawEnded.withLock { $0.append(bodyEnded.load(ordering: .acquiring)) }
        returned.leave()
      }
    }
    started.wait()
    // The body is still held: no join may return.
    XCTAssertEqual(returned.wait(timeout: .now() + .milliseconds(200)), .timedOut)
    XCTAssertEqual(sawEnded.withLock { $0 }, [])
    release.signal()
    XCTAssertEqual(returned.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(sawEnded.withLock { $0 }, Array(repeating: true, count: joiners))
    XCTAssertTrue(thread.isJoined)
    // Later joins return at once.
    thread.join()
    XCTAssertTrue(thread.isJoined)
  }
}

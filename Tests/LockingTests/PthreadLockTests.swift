import Dispatch
import Locking
import Synchronization
import XCTest

/// The pthread lock that `Lock` is in ThreadSanitizer builds, tested in every build.
final class PthreadLockTests: XCTestCase {
  private struct Failure: Error, Equatable {}

  /// Counts how many of its tokens ended.
  private final class Ends: @unchecked Sendable {
    var count = 0
  }

  /// A noncopyable value that says when it ends.
  private struct Token: ~Copyable {
    let id: Int
    let ends: Ends

    deinit { ends.count += 1 }
  }

  func testWithLockGivesTheBodyTheValueAndKeepsWhatItChanged() {
    let lock = PthreadLock([1, 2])
    let count = lock.withLock { values -> Int in
      values.append(3)
      return values.count
    }
    XCTAssertEqual(count, 3)
    XCTAssertEqual(lock.withLock { $0 }, [1, 2, 3])
  }

  func testBodiesOfOneLockNeverOverlapAcrossThreads() {
    struct Counter {
      var inside = false
      var overlaps = 0
      var count = 0
    }
    let lock = PthreadLock(Counter())
    let threads = 4
    let rounds = 20_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<rounds {
        lock.withLock { counter in
          if counter.inside { counter.overlaps += 1 }
          counter.inside = true
          counter.count += 1
          counter.inside = false
        }
      }
    }
    let counter = lock.withLock { $0 }
    XCTAssertEqual(counter.count, threads * rounds)
    XCTAssertEqual(counter.overlaps, 0)
  }

  func testAThrowingBodyReleasesTheLockAndLeavesItsChanges() {
    let lock = PthreadLock(0)
    XCTAssertThrowsError(
      try lock.withLock { (value: inout Int) throws(Failure) -> Void in
        value = 7
        throw Failure()
      }
    ) { error in
      XCTAssertEqual(error as? Failure, Failure())
    }
    // Another thread takes the lock: it would wait forever if the throw had kept it.
    let taken = DispatchSemaphore(value: 0)
    let seen = Atomic<Int>(-1)
    DispatchQueue.global().async {
      seen.store(lock.withLock { $0 }, ordering: .relaxed)
      taken.signal()
    }
    XCTAssertEqual(taken.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(seen.load(ordering: .relaxed), 7)
  }

  func testANoncopyableValueEndsOnceWhenReplacedAndOnceWhenTheLockEnds() {
    let ends = Ends()
    do {
      let lock = PthreadLock(Token(id: 1, ends: ends))
      XCTAssertEqual(lock.withLock { $0.id }, 1)
      XCTAssertEqual(ends.count, 0)
      lock.withLock { token in token = Token(id: 2, ends: ends) }
      XCTAssertEqual(ends.count, 1)
      XCTAssertEqual(lock.withLock { $0.id }, 2)
    }
    XCTAssertEqual(ends.count, 2)
  }

  func testANoncopyableResultIsMovedOutOfTheBody() {
    let ends = Ends()
    let lock = PthreadLock(5)
    let token = lock.withLock { value in Token(id: value, ends: ends) }
    XCTAssertEqual(token.id, 5)
    XCTAssertEqual(ends.count, 0)
  }

  #if REWIND_TSAN_LOCKS
    func testLockIsThePthreadLockInSanitizerBuilds() {
      let lock: Lock<Int> = PthreadLock(3)
      XCTAssertEqual(lock.withLock { $0 }, 3)
    }
  #else
    func testLockIsMutexInNormalBuilds() {
      let lock: Lock<Int> = Mutex(3)
      XCTAssertEqual(lock.withLock { $0 }, 3)
    }
  #endif
}

import ComposableCore
import Foundation
import Locking
import XCTest

/// `PublishedTable`: what `publish` stores is what `read` sees, an update that returns nil keeps
/// the current contents, publishers never lose each other's additions, and a reader never sees
/// a table half made or older than one it already saw.
final class PublishedTableTests: XCTestCase {
  func testNothingIsReadBeforeTheFirstPublish() {
    let table = PublishedTable<[Int]>()
    var calls = 0
    let read: Int? = table.read { contents in
      calls += 1
      return contents.count
    }
    XCTAssertNil(read)
    XCTAssertEqual(calls, 0)
  }

  func testAReadAfterAPublishSeesTheContentsPublished() {
    let table = PublishedTable<[Int]>()
    var seen: [[Int]?] = []
    let result = table.publish { current -> (contents: [Int]?, result: String) in
      seen.append(current)
      return ([1, 2, 3], "first")
    }
    XCTAssertEqual(result, "first")
    XCTAssertEqual(table.read { $0 }, [1, 2, 3])
    table.publish { current in
      seen.append(current)
      return ((current ?? []) + [4], ())
    }
    XCTAssertEqual(seen, [nil, [1, 2, 3]])
    XCTAssertEqual(table.read { $0 }, [1, 2, 3, 4])
  }

  func testAnUpdateThatReturnsNilKeepsTheCurrentContents() {
    let table = PublishedTable<[String: Int]>()
    table.publish { _ in (["a": 1], ()) }
    let raced = table.publish { current -> (contents: [String: Int]?, result: Int?) in
      (nil, current?["a"])
    }
    XCTAssertEqual(raced, 1)
    XCTAssertEqual(table.read { $0 }, ["a": 1])
    // Nothing published yet and nothing to publish: still nothing to read.
    let empty = PublishedTable<[Int]>()
    empty.publish { current in (nil, XCTAssertNil(current)) }
    XCTAssertNil(empty.read { $0 })
  }

  /// Each thread adds its own keys, all at once: an addition made from contents another
  /// publisher had already replaced would drop that publisher's key, which the last table shows.
  func testPublishersOnManyThreadsAtOnceLoseNoAddition() {
    let table = PublishedTable<[Int: Int]>()
    let threads = 8
    let perThread = 100
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread {
        let key = thread * perThread + index
        table.publish { current in
          var contents = current ?? [:]
          contents[key] = thread
          return (contents, ())
        }
      }
    }
    let last = table.read { $0 } ?? [:]
    XCTAssertEqual(last.count, threads * perThread)
    for key in 0..<threads * perThread {
      XCTAssertEqual(last[key], key / perThread, "key \(key)")
    }
  }

  /// What the lock-step test's threads share.
  private final class LockStep: Sendable {
    let table = PublishedTable<[Int]>()
    /// The last table each reader saw.
    let seenUpTo: Lock<[Int]>
    /// The tables each reader saw, in the order it saw them.
    let seen: Lock<[[Int]]>
    let broken = Lock<[String]>([])
    let finished = DispatchSemaphore(value: 0)

    init(readers: Int) {
      seenUpTo = Lock(Array(repeating: 0, count: readers))
      seen = Lock(Array(repeating: [], count: readers))
    }
  }

  /// Readers and a publisher on threads of their own, in lock step: the publisher publishes
  /// table n (n entries, each n) only once every reader has seen table n − 1, so each reader
  /// reads while the next table is being made and published, and must see every table, whole
  /// and in order. A reader that saw an older table after a newer one, a table not whole, or
  /// that missed one fails here; a publisher whose tables never reach the readers hangs it.
  func testReadersSeeEveryTableWholeAndInOrderWhileItIsPublished() {
    // Each step waits for every reader to be scheduled: a few hundred steps take seconds on a
    // loaded two-core machine, and a hundred already interleave every publish with reads.
    let readers = 2
    let tables = 100
    let shared = LockStep(readers: readers)
    for reader in 0..<readers {
      Thread {
        var last = 0
        var order: [Int] = []
        while last < tables {
          let read = shared.table.read { contents in
            (contents.count, contents.allSatisfy { $0 == contents.count })
          }
          guard let (count, whole) = read else { continue }
          if !whole || count < last {
            shared.broken.withLock { $0.append("reader \(reader): \(count) after \(last)") }
            // Let the publisher go on without this reader.
            shared.seenUpTo.withLock { $0[reader] = tables }
            break
          }
          if count > last {
            order.append(count)
            last = count
            shared.seenUpTo.withLock { $0[reader] = count }
          }
        }
        shared.seen.withLock { $0[reader] = order }
        shared.finished.signal()
      }.start()
    }
    Thread {
      for n in 1...tables {
        shared.table.publish { _ in (Array(repeating: n, count: n), ()) }
        // Every reader sees table n before table n + 1 is made.
        while shared.seenUpTo.withLock({ $0.contains { $0 < n } }) {}
      }
      shared.finished.signal()
    }.start()
    for _ in 0...readers {
      shared.finished.wait()
    }
    XCTAssertEqual(shared.broken.withLock { $0 }, [])
    for reader in 0..<readers {
      XCTAssertEqual(shared.seen.withLock { $0[reader] }, Array(1...tables), "reader \(reader)")
    }
  }
}

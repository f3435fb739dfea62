import ComposableCore
import Dispatch
import Locking
import Synchronization
import XCTest

/// The live-value cache read without a lock: a key's first reads racing on several threads
/// keep one value, and every reader gets that one.
final class PublishedValueCacheTests: XCTestCase {
  /// A value whose identity tells which read made it.
  private final class Made: Sendable {
    let maker: Int

    init(maker: Int) {
      self.maker = maker
    }
  }

  /// Something to make a key of.
  private final class Key: Sendable {}

  func testAKeyReadFirstOnManyThreadsAtOnceKeepsOneValueThatEveryReaderGets() {
    let cache = PublishedValueCache()
    let keys = (0..<48).map { _ in Key() }
    let threads = 8
    let seen = Lock<[[ObjectIdentifier]]>(Array(repeating: [], count: threads))
    let makes = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var got: [ObjectIdentifier] = Array(repeating: ObjectIdentifier(Key.self), count: keys.count)
      // Each thread goes through the keys from a different start, twice.
      for round in 0..<2 {
        for offset in 0..<keys.count {
          let index = (offset + thread * 5) % keys.count
          let value = cache.value(for: ObjectIdentifier(keys[index])) { () -> Made in
            makes.add(1, ordering: .relaxed)
            return Made(maker: thread)
          }
          if round == 0 {
            got[index] = ObjectIdentifier(value)
          } else {
            XCTAssertEqual(got[index], ObjectIdentifier(value), "key \(index) changed")
          }
        }
      }
      seen.withLock { $0[thread] = got }
    }
    let all = seen.withLock { $0 }
    for thread in 1..<threads {
      XCTAssertEqual(all[thread], all[0], "thread \(thread) got other values")
    }
    XCTAssertEqual(Set(all[0]).count, keys.count)
    XCTAssertGreaterThanOrEqual(makes.load(ordering: .relaxed), keys.count)
  }

  func testAValueIsMadeOnceAndKeysOfDifferentValueTypesStayApart() {
    let cache = PublishedValueCache()
    var makes = 0
    let first = cache.value(for: ObjectIdentifier(Int.self)) { () -> Int in
      makes += 1
      return 42
    }
    let again = cache.value(for: ObjectIdentifier(Int.self)) { () -> Int in
      makes += 1
      return 0
    }
    let text = cache.value(for: ObjectIdentifier(String.self)) { "text" }
    XCTAssertEqual([first, again], [42, 42])
    XCTAssertEqual(text, "text")
    XCTAssertEqual(makes, 1)
    XCTAssertEqual(cache.value(for: ObjectIdentifier(Int.self)) { 7 }, 42)
  }

  /// The table buckets a key by its identity's address mixed with the table's seed: each of
  /// many keys made one after another (addresses close together) keeps its own value.
  func testManyKeysMadeTogetherEachKeepTheirOwnValue() {
    let cache = PublishedValueCache()
    let keys = (0..<500).map { _ in Key() }
    for (index, key) in keys.enumerated() {
      XCTAssertEqual(cache.value(for: ObjectIdentifier(key)) { index }, index)
    }
    XCTAssertEqual(
      keys.map { key in cache.value(for: ObjectIdentifier(key)) { -1 } }, Array(0..<500))
  }
}

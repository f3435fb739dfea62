import Foundation
import TestSupport
import XCTest

@testable import TraceRecorder

/// The ring between the main actor and the writer: every element once, in order, the closing
/// one last, the bound held.
final class CaptureQueueTests: XCTestCase {
  func testABlockedProducerHandsOverEveryElementInOrderThenTheClosingOne() {
    let queue = CaptureQueue<Int>(capacity: 3)
    let count = 20_000
    let received = LockedBox<[Int]>([])
    let consumer = Thread {
      while true {
        let batch = queue.take(timeout: .milliseconds(5))
        received.mutate { $0 += batch }
        queue.recycle(batch)
        if batch.last == -1 { return }
      }
    }
    consumer.start()
    for value in 0..<count { XCTAssertTrue(queue.append(value, whenFull: .block)) }
    XCTAssertTrue(queue.close(with: -1))
    while received.value.last != -1 { usleep(1_000) }
    XCTAssertEqual(received.value, Array(0..<count) + [-1])
    XCTAssertLessThanOrEqual(queue.highWater, 3)
    XCTAssertEqual(queue.count, 0)
  }

  func testAFullQueueDropsUnderTheDropPolicyAndAClosedOneRefusesEverything() {
    let queue = CaptureQueue<String>(capacity: 2)
    XCTAssertTrue(queue.append("a", whenFull: .drop))
    XCTAssertTrue(queue.append("b", whenFull: .drop))
    XCTAssertFalse(queue.append("c", whenFull: .drop))
    XCTAssertEqual(queue.count, 2)
    XCTAssertEqual(queue.take(timeout: .zero), ["a", "b"])
    XCTAssertTrue(queue.append("d", whenFull: .drop))
    XCTAssertTrue(queue.close(with: "end"))
    XCTAssertFalse(queue.close(with: "again"))
    XCTAssertFalse(queue.append("e", whenFull: .block))
    XCTAssertEqual(queue.take(timeout: .zero), ["d"])
    XCTAssertEqual(queue.take(timeout: .zero), ["end"])
    XCTAssertEqual(queue.take(timeout: .zero), [])
    XCTAssertEqual(queue.highWater, 2)
  }

  func testAReservedSlotIsTakenOnlyOncePublishedAndTheRingWrapsAroundInOrder() {
    let queue = CaptureQueue<String>(capacity: 3)
    XCTAssertTrue(queue.hasRoom)
    for round in 0..<4 {
      for index in 0..<3 {
        let slot = queue.reserve(whenFull: .drop)
        XCTAssertNotNil(slot)
        slot?.initialize(to: "\(round).\(index)")
        if index == 2 {
          // Initialized but not published: not the consumer's yet.
          XCTAssertEqual(queue.count, 2)
          XCTAssertEqual(queue.take(timeout: .zero), ["\(round).0", "\(round).1"])
        }
        queue.publish()
      }
      XCTAssertTrue(queue.hasRoom)
      XCTAssertEqual(queue.take(timeout: .zero), ["\(round).2"])
    }
    for index in 0..<3 { XCTAssertTrue(queue.append("full.\(index)", whenFull: .drop)) }
    XCTAssertFalse(queue.hasRoom)
    XCTAssertNil(queue.reserve(whenFull: .drop))
    XCTAssertEqual(queue.take(timeout: .zero), ["full.0", "full.1", "full.2"])
    XCTAssertTrue(queue.close(with: "end"))
    XCTAssertNil(queue.reserve(whenFull: .block))
    XCTAssertEqual(queue.take(timeout: .zero), ["end"])
    XCTAssertEqual(queue.highWater, 3)
  }

  func testTheProducersRememberedHeadNeitherLosesRoomNorRaisesTheHighWater() {
    let queue = CaptureQueue<Int>(capacity: 8)
    for value in 0..<3 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertEqual(queue.take(timeout: .zero), [0, 1, 2])
    // The producer last read the head at 0: 2 queued now, not 5.
    for value in 3..<5 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertEqual(queue.highWater, 3)
    for value in 5..<7 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertEqual(queue.highWater, 4)
    XCTAssertEqual(queue.take(timeout: .zero), [3, 4, 5, 6])
    // Every slot the consumer freed is used, though the producer's reading is behind.
    for value in 7..<15 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertFalse(queue.hasRoom)
    XCTAssertFalse(queue.append(15, whenFull: .drop))
    XCTAssertEqual(queue.highWater, 8)
    XCTAssertEqual(queue.take(timeout: .zero), Array(7..<15))
    XCTAssertTrue(queue.hasRoom)
    XCTAssertTrue(queue.append(16, whenFull: .drop))
    XCTAssertEqual(queue.count, 1)
    XCTAssertEqual(queue.highWater, 8)
  }

  func testElementsLeftInTheRingAreReleasedWithIt() {
    final class Tracked: Sendable {
      let released: LockedBox<Int>
      init(_ released: LockedBox<Int>) { self.released = released }
      deinit { released.mutate { $0 += 1 } }
    }
    let released = LockedBox(0)
    do {
      let queue = CaptureQueue<Tracked>(capacity: 4)
      for _ in 0..<3 { queue.append(Tracked(released), whenFull: .drop) }
      _ = queue.take(timeout: .zero)
      for _ in 0..<2 { queue.append(Tracked(released), whenFull: .drop) }
    }
    XCTAssertEqual(released.value, 5)
  }

  func testMakingAQueueMapsItsFirstSlotsPagesUpToTheBoundAndNoMore() {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let limit = CaptureQueue<Int>.touchedBytesLimit
    // 64 MiB of slots: above malloc's largest mmap threshold, so fresh pages nobody touched.
    let bytes = 16 * limit
    let queue = CaptureQueue<Int>(capacity: bytes / MemoryLayout<Int>.stride)
    let start = UnsafeRawPointer(queue.slots)
    XCTAssertEqual(residentPages(from: start, count: limit / page), limit / page)
    let lastHalf = start + bytes / 2
    XCTAssertEqual(residentPages(from: lastHalf, count: bytes / 2 / page - 1), 0)
    XCTAssertTrue(queue.append(7, whenFull: .drop))
    XCTAssertEqual(queue.take(timeout: .zero), [7])
  }

  /// How many of the `count` pages from the one holding `address` are in memory (`mincore`).
  private func residentPages(from address: UnsafeRawPointer, count: Int) -> Int {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let first = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: address) & ~(page - 1))!
    var vector = [UInt8](repeating: 0, count: count)
    XCTAssertEqual(mincore(first, count * page, &vector), 0)
    return vector.filter { $0 & 1 == 1 }.count
  }
}

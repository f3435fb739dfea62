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

  /// The consumer as `take` makes it wait: the flag set, then the semaphore (the test plays
  /// the consumer, and looks at the semaphore without waiting).
  func testTheProducerWakesAWaitingConsumerAtEachCrossingOfTheThresholdAboveANewHead() {
    let queue = CaptureQueue<Int>(capacity: 8)
    XCTAssertEqual(queue.wakeThreshold, 4)
    func isSignalled() -> Bool { queue.elementsAvailable.wait(timeout: .now()) == .success }
    queue.consumerWaiting.store(true, ordering: .sequentiallyConsistent)
    for value in 0..<3 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertTrue(queue.consumerWaiting.load(ordering: .sequentiallyConsistent))
    XCTAssertFalse(isSignalled())
    // The fourth queued: the crossing wakes it, once.
    XCTAssertTrue(queue.append(3, whenFull: .drop))
    XCTAssertFalse(queue.consumerWaiting.load(ordering: .sequentiallyConsistent))
    XCTAssertTrue(isSignalled())
    XCTAssertTrue(queue.append(4, whenFull: .drop))
    XCTAssertFalse(isSignalled())
    XCTAssertEqual(queue.take(timeout: .zero), [0, 1, 2, 3, 4])
    // Waiting again above the new head (5): the producer's remembered head (0) is behind.
    queue.consumerWaiting.store(true, ordering: .sequentiallyConsistent)
    for value in 5..<8 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertFalse(isSignalled())
    XCTAssertTrue(queue.append(8, whenFull: .drop))
    XCTAssertTrue(isSignalled())
    XCTAssertFalse(queue.consumerWaiting.load(ordering: .sequentiallyConsistent))
    XCTAssertEqual(queue.take(timeout: .zero), [5, 6, 7, 8])
    // And a third time, across the ring's end.
    queue.consumerWaiting.store(true, ordering: .sequentiallyConsistent)
    for value in 9..<13 { XCTAssertTrue(queue.append(value, whenFull: .drop)) }
    XCTAssertTrue(isSignalled())
    XCTAssertEqual(queue.take(timeout: .zero), [9, 10, 11, 12])
  }

  /// A consumer thread waits with a timeout no test reaches; each round queues exactly the
  /// threshold once it waits, so only the crossing's wake-up can end its wait in time. A lost
  /// wake-up fails the round's wait for the batch (the timeout only detects it).
  func testAConsumerWaitingForABatchIsWokenAtEveryCrossing() {
    let queue = CaptureQueue<Int>(capacity: 16)
    let threshold = queue.wakeThreshold
    let rounds = 300
    let received = LockedBox<[Int]>([])
    let roundDone = DispatchSemaphore(value: 0)
    let consumer = Thread {
      var round: [Int] = []
      while true {
        var batch = queue.take(timeout: .seconds(3_600))
        // Taken between its flag and its wait, before the round's last element: the rest is
        // below the threshold and wakes nobody, so it is polled for.
        while !batch.isEmpty, batch.last != -1, round.count + batch.count < threshold {
          round += batch
          batch = queue.take(timeout: .zero)
        }
        if batch.last == -1 {
          received.mutate { $0 += round + batch.dropLast() }
          roundDone.signal()
          return
        }
        round += batch
        if round.count == threshold {
          received.mutate { $0 += round }
          round = []
          roundDone.signal()
        }
      }
    }
    consumer.start()
    var next = 0
    for round in 0..<rounds {
      while !queue.consumerWaiting.load(ordering: .sequentiallyConsistent) { sched_yield() }
      for _ in 0..<threshold {
        XCTAssertTrue(queue.append(next, whenFull: .drop))
        next += 1
      }
      guard roundDone.wait(timeout: .now() + .seconds(120)) == .success else {
        XCTFail("round \(round): the consumer was not woken")
        break
      }
    }
    XCTAssertTrue(queue.close(with: -1))
    XCTAssertEqual(roundDone.wait(timeout: .now() + .seconds(120)), .success)
    XCTAssertEqual(received.value, Array(0..<next))
    XCTAssertEqual(next, rounds * threshold)
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

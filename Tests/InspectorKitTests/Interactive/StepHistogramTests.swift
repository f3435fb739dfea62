import TraceKit
import XCTest

@testable import InspectorKit

final class StepHistogramTests: XCTestCase {
  func testBucketsStayFewWhateverTheLengthAndFindTheNextHit() {
    var hits = StepHistogram(filter: StepFilter(), lastStep: 1_000_000)
    XCTAssertEqual(hits.bucketSize, 2048)
    XCTAssertEqual(hits.counts.count, 489)
    XCTAssertEqual(hits.nextPending()?.from, 0)
    XCTAssertEqual(hits.nextPending()?.to, 2047)
    var index = 0
    while hits.nextPending() != nil {
      hits.record(index == 300 ? 2 : 0)
      index += 1
    }
    XCTAssertEqual(hits.total, 2)
    XCTAssertEqual(hits.nextHitBucket(after: 10), .bucket(300))
    XCTAssertEqual(hits.nextHitBucket(after: 300 * 2048), .none)
    XCTAssertEqual(hits.previousHitBucket(before: 999_999), .bucket(300))
    XCTAssertEqual(hits.hasHit(in: (300 * 2048)...(300 * 2048 + 5)), true)
    XCTAssertEqual(hits.hasHit(in: 0...5), false)
  }

  func testGrowingMergesBucketsAndRecountsTheLastOne() {
    var hits = StepHistogram(filter: StepFilter(), lastStep: 511)
    XCTAssertEqual(hits.bucketSize, 1)
    while hits.nextPending() != nil { hits.record(1) }
    hits.grow(to: 1023)
    XCTAssertEqual(hits.bucketSize, 2)
    XCTAssertEqual(hits.counts.count, 512)
    XCTAssertEqual(hits.counts[0], 2)
    // The old last bucket was recounted (it may have grown): merged with it, unknown.
    XCTAssertNil(hits.counts[255])
    XCTAssertEqual(hits.nextHitBucket(after: 0), .bucket(1))
    XCTAssertEqual(hits.nextHitBucket(after: 505), .bucket(253))
    XCTAssertEqual(hits.nextHitBucket(after: 509), .unknown)
  }
}

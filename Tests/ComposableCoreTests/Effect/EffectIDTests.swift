import ComposableCore
import Foundation
import XCTest

/// Effect ids are time-ordered (RFC 9562 version 7): what a trace's `effects` table is keyed by
/// grows as the store starts effects.
final class EffectIDTests: XCTestCase {
  /// The clock's milliseconds, then a counter that goes on within a millisecond and when the
  /// clock steps back, and restarts in a new millisecond; the low bits come from the seed.
  func testIDsFromAGivenClockAreExactlyThese() {
    let generator = EffectID.Generator(seed: 1)
    let ids = [0x0123_4567_89AB, 0x0123_4567_89AB, 0x0123_4567_89AA, 0x0123_4567_89AC].map {
      generator.next(milliseconds: $0).description
    }
    XCTAssertEqual(
      ids,
      [
        "01234567-89AB-7000-910A-2DEC89025CC1",
        "01234567-89AB-7001-BEEB-8DA1658EEC67",
        "01234567-89AB-7002-B893-A2EEFB32555E",
        "01234567-89AC-7000-B1C1-8690EE42C90B",
      ])
  }

  /// The 4,097th id of one millisecond carries the full counter into the time, and the ids
  /// stay strictly increasing when the clock then reaches that time.
  func testAFullCounterCarriesIntoTheMilliseconds() {
    let generator = EffectID.Generator(seed: 7)
    var ids = (0..<4_097).map { _ in generator.next(milliseconds: 0x0000_0000_1000) }
    ids.append(generator.next(milliseconds: 0x0000_0000_1001))
    ids.append(generator.next(milliseconds: 0x0000_0000_1002))
    let texts = ids.map(\.description)
    XCTAssertEqual(texts[0].prefix(19), "00000000-1000-7000-")
    XCTAssertEqual(texts[4_095].prefix(19), "00000000-1000-7FFF-")
    XCTAssertEqual(texts[4_096].prefix(19), "00000000-1001-7000-")
    XCTAssertEqual(texts[4_097].prefix(19), "00000000-1001-7001-")
    XCTAssertEqual(texts[4_098].prefix(19), "00000000-1002-7000-")
    XCTAssertTrue(zip(texts, texts.dropFirst()).allSatisfy { $0 < $1 })
  }

  /// The process-wide generator: version 7, variant 10, strictly increasing (as text too, which
  /// is how a trace orders them).
  func testProcessIDsAreVersion7AndStrictlyIncreasing() {
    let ids = (0..<1_000).map { _ in EffectID.next().description }
    for id in ids {
      XCTAssertEqual(Array(id)[14], "7", id)
      XCTAssertTrue("89AB".contains(Array(id)[19]), id)
    }
    XCTAssertTrue(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
    XCTAssertEqual(Set(ids).count, 1_000)
  }

  /// A dictionary buckets by the low bits of `_rawHashValue`: ids made within one millisecond
  /// (same time, the counter in one field, the variant bits fixed) still land on every one of
  /// 256 buckets.
  func testIDsOfOneMillisecondSpreadOverTheLowBitsOfTheirHash() {
    let generator = EffectID.Generator(seed: 3)
    let ids = (0..<4_096).map { _ in generator.next(milliseconds: 1_700_000_000_000) }
    let lowBytes = Set(ids.map { $0._rawHashValue(seed: 0) & 0xFF })
    XCTAssertEqual(lowBytes.count, 256)
  }
}

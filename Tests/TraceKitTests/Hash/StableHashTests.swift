import XCTest

@testable import TraceKit

// Expected numbers come from an independent Python implementation of XXH64 over the canonical
// words written out by hand (its results for "", "a" and "abc" match the published vectors).
final class StableHashTests: XCTestCase {
  func testReferenceXXHash64MatchesPublishedVectors() {
    XCTAssertEqual(ReferenceXXHash64.hash([]), 0xEF46_DB37_51D8_E999)
    XCTAssertEqual(ReferenceXXHash64.hash(Array("a".utf8)), 0xD24E_C4F1_A98C_6E5B)
    XCTAssertEqual(ReferenceXXHash64.hash(Array("abc".utf8)), 0x44BC_2CF5_AD77_0999)
    XCTAssertEqual(ReferenceXXHash64.hash((0..<100).map { UInt8($0) }), 0x6AC1_E580_3216_6597)
  }

  func testStreamingHasherEqualsXXHash64OfTheWordBytes() {
    var random = SeededGenerator(seed: 99)
    for count in 0..<40 {
      let words = (0..<count).map { _ in random.next() }
      var hasher = StableHasher()
      for word in words { hasher.combine(word) }
      let bytes = words.flatMap { word in
        (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
      }
      XCTAssertEqual(hasher.finalize(), ReferenceXXHash64.hash(bytes), "\(count) words")
    }
  }

  func testScalarsHashToFixedNumbers() {
    XCTAssertEqual(TraceValue.null.stableHash, 0x34C9_6ACD_CADB_1BBB)
    XCTAssertEqual(TraceValue.bool(true).stableHash, 0xE908_593D_2D29_0D21)
    XCTAssertEqual(TraceValue.bool(false).stableHash, 0x9F29_CB17_A2A4_9995)
    XCTAssertEqual(TraceValue.int(1).stableHash, 0x4152_5B70_9A47_B22B)
    XCTAssertEqual(TraceValue.int(-1).stableHash, 0x7428_B762_D221_DDC0)
    XCTAssertEqual(TraceValue.uint(.max).stableHash, 0x21C2_084B_C246_C22D)
    XCTAssertEqual(TraceValue.double(1).stableHash, 0xC446_5518_F750_6272)
    XCTAssertEqual(TraceValue.string("héllo").stableHash, 0x1E04_B39C_881F_05F6)
    XCTAssertEqual(
      TraceValue.string("0123456789abcdefghij").stableHash, 0x098B_5B39_F046_5B70)
    XCTAssertEqual(TraceValue.bytes([1, 2, 3]).stableHash, 0x3978_3C25_C858_7466)
  }

  func testContainersHashToFixedNumbers() {
    XCTAssertEqual(TraceValue.array([.int(1), .null]).stableHash, 0x93E6_5DE9_27BA_A5E5)
    let todo = TraceValue.object([
      TraceField("id", .int(3)), TraceField("title", .string("Buy milk")),
    ])
    XCTAssertEqual(todo.stableHash, 0xCB7B_2AD7_EABD_A9F1)
    let loaded = TraceValue.enumCase("loaded", [TraceField("_0", .bool(false))])
    XCTAssertEqual(loaded.stableHash, 0xF2F2_873F_3CDF_2222)
    XCTAssertEqual(
      TraceValue.reflected(typeName: "Foo", .array([])).stableHash, 0xCD54_1363_546E_6953)
  }

  func testStructurallyDifferentTreesHashDifferently() {
    // Same leaves, different shapes: the tags and lengths keep them apart.
    let values: [TraceValue] = [
      .array([.array([]), .array([])]), .array([.array([.array([])])]),
      .object([TraceField("ab", .null)]),
      .object([TraceField("a", .null), TraceField("b", .null)]),
      .enumCase("a", []), .object([TraceField("a", .object([]))]), .string("a"), .bytes([97]),
      .string("a\0"), .int(1), .uint(1), .double(0), .double(-0.0), .bool(false), .null,
    ]
    XCTAssertEqual(Set(values.map(\.stableHash)).count, values.count)
  }

  func testEqualValuesHashEqualAcrossJSONRoundTrips() throws {
    var random = RandomTraceValue(seed: 0xA5A5)
    for _ in 0..<1_000 {
      let value = random.value(depth: 5)
      let copy = try TraceValue(json: value.jsonString)
      XCTAssertEqual(copy.stableHash, value.stableHash)
    }
  }
}

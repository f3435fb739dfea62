import XCTest

@testable import TraceKit

// Expected numbers come from an independent Python implementation of XXH64 over the canonical
// bytes written out by hand (its results for "", "a" and "abc" match the published vectors).
final class StableHashTests: XCTestCase {
  func testXXHash64MatchesPublishedVectors() {
    XCTAssertEqual(XXHash64.hash([]), 0xEF46_DB37_51D8_E999)
    XCTAssertEqual(XXHash64.hash(Array("a".utf8)), 0xD24E_C4F1_A98C_6E5B)
    XCTAssertEqual(XXHash64.hash(Array("abc".utf8)), 0x44BC_2CF5_AD77_0999)
    XCTAssertEqual(XXHash64.hash((0..<100).map { UInt8($0) }), 0x6AC1_E580_3216_6597)
  }

  func testScalarsHashToFixedNumbers() {
    XCTAssertEqual(TraceValue.null.stableHash, 0xE934_A84A_DB05_2768)
    XCTAssertEqual(TraceValue.bool(true).stableHash, 0x52FC_4823_A13C_997A)
    XCTAssertEqual(TraceValue.int(1).stableHash, 0x7BC7_59F3_A16F_D092)
    XCTAssertEqual(TraceValue.int(-1).stableHash, 0x0C72_A2D6_ABB7_C8FF)
    XCTAssertEqual(TraceValue.uint(.max).stableHash, 0xC412_5F91_876B_4E50)
    XCTAssertEqual(TraceValue.double(1).stableHash, 0x0881_F2FC_EEA8_E333)
    XCTAssertEqual(TraceValue.string("héllo").stableHash, 0x0746_AA7A_2012_4044)
    XCTAssertEqual(TraceValue.bytes([1, 2, 3]).stableHash, 0xE3B2_6D2A_8A5E_6B66)
  }

  func testContainersHashToFixedNumbers() {
    XCTAssertEqual(TraceValue.array([.int(1), .null]).stableHash, 0x6F97_06A0_2167_AAE8)
    let todo = TraceValue.object([
      TraceField("id", .int(3)), TraceField("title", .string("Buy milk")),
    ])
    XCTAssertEqual(todo.stableHash, 0xC615_E187_35ED_5AAD)
    let loaded = TraceValue.enumCase("loaded", [TraceField("_0", .bool(false))])
    XCTAssertEqual(loaded.stableHash, 0x4610_AB92_450C_BD90)
    XCTAssertEqual(
      TraceValue.reflected(typeName: "Foo", .array([])).stableHash, 0x79C5_61D2_1879_2C77)
  }

  func testStructurallyDifferentTreesHashDifferently() {
    // Same leaves, different shapes: the tags and lengths keep them apart.
    let values: [TraceValue] = [
      .array([.array([]), .array([])]), .array([.array([.array([])])]),
      .object([TraceField("ab", .null)]),
      .object([TraceField("a", .null), TraceField("b", .null)]),
      .enumCase("a", []), .object([TraceField("a", .object([]))]), .string("a"), .bytes([97]),
      .int(1), .uint(1), .double(0), .double(-0.0),
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

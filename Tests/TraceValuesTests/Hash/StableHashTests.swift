import TestSupport
import XCTest

@testable import TraceValues

// Expected numbers come from an independent Python implementation of the definition,
// tools/stable-hash-reference.py (byte-at-a-time XXH64 whose results for "" and "abc" match the
// published vectors, and the Merkle words written from the doc comment).
final class StableHashTests: XCTestCase {
  func testReferenceXXHash64MatchesPublishedVectors() {
    XCTAssertEqual(ReferenceXXHash64.hash([]), 0xEF46_DB37_51D8_E999)
    XCTAssertEqual(ReferenceXXHash64.hash(Array("a".utf8)), 0xD24E_C4F1_A98C_6E5B)
    XCTAssertEqual(ReferenceXXHash64.hash(Array("abc".utf8)), 0x44BC_2CF5_AD77_0999)
    XCTAssertEqual(ReferenceXXHash64.hash((0..<100).map { UInt8($0) }), 0x6AC1_E580_3216_6597)
  }

  func testStreamingHasherEqualsXXHash64OfTheWordBytes() {
    var random = SplitMix(seed: 99)
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

  func testWordsFedInPairsAndInBuffersHashAsWordsFedOneByOne() {
    var random = SplitMix(seed: 7)
    for count in 0..<40 {
      let words = (0..<count).map { _ in random.next() }
      let bytes = words.flatMap { word in
        (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
      }
      let expected = ReferenceXXHash64.hash(bytes)
      // A buffer after 0 to 3 single words (each number of waiting words), then a pair and a
      // buffer again, so that both paths start at every position in a stripe.
      for lead in 0...min(3, count) {
        var hasher = StableHasher()
        for word in words[..<lead] { hasher.combine(word) }
        let rest = Array(words[lead...])
        let pairEnd = rest.count >= 2 ? 2 : 0
        if pairEnd == 2 { hasher.combine(rest[0], rest[1]) }
        rest[pairEnd...].withUnsafeBufferPointer { hasher.combine($0) }
        XCTAssertEqual(hasher.finalize(), expected, "\(count) words, \(lead) first")
      }
      var pairs = StableHasher()
      var index = 0
      while index + 1 < count {
        pairs.combine(words[index], words[index + 1])
        index += 2
      }
      if index < count { pairs.combine(words[index]) }
      XCTAssertEqual(pairs.finalize(), expected, "\(count) words in pairs")
    }
    XCTAssertEqual(
      MerkleHash.arrayHash(count: 10_000, runHashes: (0..<157).map { UInt64($0) &* 0x9E37 }),
      {
        var hasher = StableHasher()
        hasher.combine(MerkleHash.arrayHead(count: 10_000))
        for run in 0..<157 { hasher.combine(UInt64(run) &* 0x9E37) }
        return hasher.finalize()
      }())
  }

  /// Containers fed as a buffer of head and hash words hash as containers fed one by one, after
  /// any number of words already waiting (a small array's head, scalars before them).
  func testContainerWordsFedAtOnceHashAsContainersFedOneByOne() {
    var random = SplitMix(seed: 0xC0FF)
    for count in 0..<24 {
      let heads = (0..<count).map { _ in random.next() | 1 }
      let hashes = (0..<count).map { _ in random.next() }
      let words = (0..<count).flatMap { [heads[$0], hashes[$0]] }
      for scalars in 0..<4 {
        for small in [false, true] {
          var one = small ? MerkleHash.RunHasher(smallArrayCount: count) : MerkleHash.RunHasher()
          var all = one
          for scalar in 0..<scalars {
            one.add(.int(Int64(scalar)), hash: 0)
            all.add(.int(Int64(scalar)), hash: 0)
          }
          for index in 0..<count { one.add(containerHead: heads[index], hash: hashes[index]) }
          words.withUnsafeBufferPointer { all.add(containerWords: $0) }
          XCTAssertEqual(all.finalize(), one.finalize(), "\(count), \(scalars), \(small)")
        }
      }
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
      TraceValue.reflected(typeName: "Foo", .array([])).stableHash, 0x2E05_7230_A014_699A)
    let nested = TraceValue.array([
      .array([.int(1)]), .object([TraceField("a", .array([]))]),
    ])
    XCTAssertEqual(nested.stableHash, 0x51F8_59EA_790B_288E)
  }

  func testArraysLongerThanARunHashTheirRunsToFixedNumbers() {
    XCTAssertEqual(TraceValue.array((0..<64).map { .int($0) }).stableHash, 0xA270_11AD_D1D0_E028)
    XCTAssertEqual(TraceValue.array((0..<65).map { .int($0) }).stableHash, 0x5B76_0F4F_68CD_1F43)
    let todos = TraceValue.object([
      TraceField("items", .array((0..<200).map { Self.todo($0, done: $0 == 77) })),
      TraceField("touched", .int(1)),
    ])
    XCTAssertEqual(todos.stableHash, 0x247E_24CE_D497_1B58)
  }

  func testCachedPiecesGiveTheSameHashAsTheWholeTree() {
    var random = RandomTraceValue(seed: 0x5EED)
    for count in [0, 1, 63, 64, 65, 128, 129, 300] {
      let elements = (0..<count).map { _ in random.value(depth: 3) }
      let hashes = elements.map(MerkleHash.hash)
      let runs = MerkleHash.runHashes(elements, hashes: hashes)
      XCTAssertEqual(runs.count, (count + 63) / 64)
      let whole = TraceValue.array(elements).stableHash
      XCTAssertEqual(MerkleHash.arrayHash(elements, hashes: hashes), whole, "\(count)")
      if count > 64 {
        XCTAssertEqual(MerkleHash.arrayHash(count: count, runHashes: runs), whole, "\(count)")
        let last = (runs.count - 1) * 64
        XCTAssertEqual(
          MerkleHash.runHash(
            Array(elements[last..<count]), hashes: Array(hashes[last..<count])),
          runs[runs.count - 1])
        var run = MerkleHash.RunHasher()
        for index in 64..<min(128, count) { run.add(elements[index], hash: hashes[index]) }
        XCTAssertEqual(run.finalize(), runs[1])
      } else {
        var small = MerkleHash.RunHasher(smallArrayCount: count)
        for index in 0..<count { small.add(elements[index], hash: hashes[index]) }
        XCTAssertEqual(small.finalize(), whole, "\(count)")
      }
      var object = MerkleHash.ObjectHasher(fieldCount: 3)
      object.add(key: MerkleHash.Key("rows"), head: MerkleHash.arrayHead(count: count), hash: whole)
      object.add(key: MerkleHash.Key("n"), value: .int(Int64(count)), hash: nil)
      object.add(key: MerkleHash.Key("same"), value: .array(elements), hash: nil)
      XCTAssertEqual(
        object.finalize(),
        TraceValue.object([
          TraceField("rows", .array(elements)), TraceField("n", .int(Int64(count))),
          TraceField("same", .array(elements)),
        ]).stableHash)
    }
  }

  /// A key whose words are made once (`MerkleHash.Key`) hashes as the key itself, whatever its
  /// length: empty, one word, two words, longer (written from the string), not ASCII.
  func testAKeyWithItsWordsMadeOnceHashesAsTheKeyItself() {
    let keys = [
      "", "n", "count", "eightchr", "ninechars", "sixteen_chars_ab", "seventeen_chars_a",
      "a much longer key than two words", "é", "naïve_ünïcödé_k",
    ]
    for key in keys {
      let value = TraceValue.object([
        TraceField(key, .int(7)), TraceField("rows", .array([.int(1)])),
        TraceField("child", .object([TraceField(key, .bool(true))])),
      ])
      var object = MerkleHash.ObjectHasher(fieldCount: 3)
      object.add(key: MerkleHash.Key(key), value: .int(7), hash: nil)
      object.add(
        key: MerkleHash.Key("rows"), head: MerkleHash.arrayHead(count: 1),
        hash: MerkleHash.hash(.array([.int(1)])))
      let child = TraceValue.object([TraceField(key, .bool(true))])
      object.add(
        key: MerkleHash.Key("child"), head: MerkleHash.objectHead(fieldCount: 1),
        hash: MerkleHash.hash(child))
      XCTAssertEqual(object.finalize(), value.stableHash, key)
      XCTAssertEqual(MerkleHash.Key(key).string, key)
    }
    // The words themselves are the key's: another key, another hash.
    var one = MerkleHash.ObjectHasher(fieldCount: 1)
    one.add(key: MerkleHash.Key("ninechars"), value: .null, hash: nil)
    var other = MerkleHash.ObjectHasher(fieldCount: 1)
    other.add(key: MerkleHash.Key("ninechart"), value: .null, hash: nil)
    XCTAssertNotEqual(one.finalize(), other.finalize())
  }

  func testFieldsHashedFromWordsMadeOnceHashAsTheirValues() {
    // Scalars of one to three words (strings of up to 16 bytes) are written from the words
    // made once; longer ones are not known and are written from the value.
    let scalars: [(TraceValue, known: Bool)] = [
      (.null, true), (.bool(true), true), (.bool(false), true), (.int(-3), true),
      (.int(Int64.max), true), (.uint(UInt64.max), true), (.double(-0.0), true),
      (.double(2.5), true), (.string(""), true), (.string("a"), true),
      (.string("eightchr"), true), (.string("ninechars"), true),
      (.string("sixteen_chars_ab"), true), (.string("seventeen_chars_a"), false),
      (.string("é"), true), (.bytes([]), true), (.bytes([1, 2, 3]), true),
      (.bytes(Array(repeating: 7, count: 16)), true), (.bytes(Array(repeating: 7, count: 17)), false),
    ]
    for (scalar, known) in scalars {
      let words = MerkleHash.ScalarWords(scalar)
      XCTAssertEqual(words.isKnown, known, "\(scalar)")
      guard known else { continue }
      var object = MerkleHash.ObjectHasher(fieldCount: 2)
      object.add(key: MerkleHash.Key("value"), scalar: words)
      object.add(key: MerkleHash.Key("n"), scalar: MerkleHash.ScalarWords(.int(1)))
      let value = TraceValue.object([TraceField("value", scalar), TraceField("n", .int(1))])
      XCTAssertEqual(object.finalize(), value.stableHash, "\(scalar)")
    }
    // Containers are not scalars: their words are their head word and hash.
    let containers: [TraceValue] = [
      .array([.int(1), .string("x")]), .object([TraceField("a", .null)]),
      .enumCase("Filter.all", []), .reflected(typeName: "T", .int(2)), .array([]),
    ]
    for container in containers {
      XCTAssertFalse(MerkleHash.ScalarWords(container).isKnown)
      var object = MerkleHash.ObjectHasher(fieldCount: 1)
      object.add(
        key: MerkleHash.Key("child"), head: MerkleHash.head(container),
        hash: MerkleHash.hash(container))
      XCTAssertEqual(
        object.finalize(), TraceValue.object([TraceField("child", container)]).stableHash,
        "\(container)")
    }
    XCTAssertEqual(MerkleHash.arrayHead(count: 3), MerkleHash.head(.array([.null, .null, .null])))
    XCTAssertEqual(
      MerkleHash.objectHead(fieldCount: 2),
      MerkleHash.head(.object([TraceField("a", .null), TraceField("b", .null)])))
    // The words are the value's: another value, another hash.
    var one = MerkleHash.ObjectHasher(fieldCount: 1)
    one.add(key: MerkleHash.Key("v"), scalar: MerkleHash.ScalarWords(.string("ninechars")))
    var other = MerkleHash.ObjectHasher(fieldCount: 1)
    other.add(key: MerkleHash.Key("v"), scalar: MerkleHash.ScalarWords(.string("ninechart")))
    XCTAssertNotEqual(one.finalize(), other.finalize())
  }

  func testChangingOneElementOfALongArrayChangesTheHash() {
    var elements = (0..<1_000).map { Self.todo($0, done: false) }
    let before = TraceValue.array(elements).stableHash
    elements[999] = Self.todo(999, done: true)
    XCTAssertNotEqual(TraceValue.array(elements).stableHash, before)
    elements[999] = Self.todo(999, done: false)
    XCTAssertEqual(TraceValue.array(elements).stableHash, before)
  }

  private static func todo(_ id: Int, done: Bool) -> TraceValue {
    .object([
      TraceField("id", .int(Int64(id))), TraceField("title", .string("item \(id)")),
      TraceField("done", .bool(done)),
    ])
  }

  func testStructurallyDifferentTreesHashDifferently() {
    // Same leaves, different shapes: the tags and lengths keep them apart.
    let values: [TraceValue] = [
      .array([.array([]), .array([])]), .array([.array([.array([])])]),
      .object([TraceField("ab", .null)]),
      .object([TraceField("a", .null), TraceField("b", .null)]),
      .enumCase("a", []), .object([TraceField("a", .object([]))]), .string("a"), .bytes([97]),
      .string("a\0"), .int(1), .uint(1), .double(0), .double(-0.0), .bool(false), .null,
      .array((0..<65).map { _ in .null }), .array((0..<64).map { _ in .null }),
      .array([.array((0..<64).map { _ in .null })]), .reflected(typeName: "a", .null),
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

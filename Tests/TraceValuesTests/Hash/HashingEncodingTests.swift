import Foundation
import TestSupport
import XCTest

@testable import TraceValues

/// `HashingEncoding` against the tree: the hash of a value computed without its tree must be
/// exactly `TraceValueEncoder().encode(value).stableHash`, on random values of types no
/// fixture has.
final class HashingEncodingTests: XCTestCase {
  /// One for the whole test: its levels are reused from one value to the next.
  private let hasher = StableHashEncoder()

  /// The hashing encoder's own answer, with no fallback to the tree encoder.
  private func directHash<T: Encodable>(_ value: T, replacing: Bool = false) throws -> UInt64 {
    try (replacing ? StableHashEncoder(replacingClassInstances: true) : hasher)
      .hashWithoutTree(value)
  }

  private func treeHash<T: Encodable>(_ value: T) throws -> UInt64 {
    try TraceValueEncoder().encode(value).stableHash
  }

  func testRandomValuesHashAsTheirTrees() throws {
    var random = SplitMix(seed: 0x5EED_0012)
    var largeArrays = 0
    for round in 0..<3_000 {
      let value = Walk.record(&random, depth: 0)
      let tree = try TraceValueEncoder().encode(value)
      let direct = try directHash(value)
      if direct != tree.stableHash {
        XCTFail("round \(round): \(tree)")
        return
      }
      XCTAssertEqual(try hasher.stableHash(of: value), tree.stableHash)
      if value.children.count > 64 { largeArrays += 1 }
    }
    // The walk reaches arrays longer than a run.
    XCTAssertGreaterThan(largeArrays, 100)
  }

  /// The replay's hasher (class instances replaced) keeps a memo of the previous value's
  /// places: a walk of small changes, each hashed after the last, reuses what did not change.
  func testSmallChangesHashAsTheirTreesThroughTheMemo() throws {
    var random = SplitMix(seed: 0x3E30)
    let hasher = StableHashEncoder(replacingClassInstances: true)
    let encoder = TraceValueEncoder()
    var value = Walk.record(&random, depth: 0)
    var reused = 0
    for round in 0..<3_000 {
      Walk.change(&value, &random)
      let tree = try encoder.encodeReplacingClassInstances(value).value.stableHash
      XCTAssertEqual(try hasher.hashWithoutTree(value), tree, "round \(round)")
      XCTAssertEqual(try hasher.hashWithoutTree(value), tree, "round \(round), again")
      if round % 7 == 0 {
        // A class instance changed in place keeps its bits and its placeholder.
        value.box.hits += 1
        XCTAssertEqual(
          try hasher.hashWithoutTree(value),
          try encoder.encodeReplacingClassInstances(value).value.stableHash)
        reused += 1
      }
    }
    XCTAssertGreaterThan(reused, 0)
  }

  func testZeroAndMinusZeroAreNotTakenForEachOther() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true)
    for value in [0.0, -0.0, 0.0, -0.0] {
      XCTAssertEqual(try hasher.hashWithoutTree([value]), try treeHash([value]), "\(value)")
      XCTAssertEqual(try hasher.hashWithoutTree(value), try treeHash(value), "\(value)")
    }
  }

  func testRandomNodesAtTheTopHashAsTheirTrees() throws {
    var random = SplitMix(seed: 41)
    for round in 0..<2_000 {
      let node = Walk.node(&random, depth: 0)
      XCTAssertEqual(try directHash(node), try treeHash(node), "round \(round)")
    }
  }

  func testDoubleEdgeCasesAndEscapedStrings() throws {
    let doubles: [Double] = [
      0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, Double(bitPattern: 0x1234), 0.1, -1.5,
    ]
    for double in doubles {
      XCTAssertEqual(try directHash(double), try treeHash(double), "\(double)")
      XCTAssertEqual(try directHash([double]), try treeHash([double]), "\(double)")
    }
    let strings = [
      "", "a", "\"quoted\"", "back\\slash", "line\nbreak\ttab", "\u{0}nul", "é and e\u{301}",
      "👩‍👩‍👧 family", String(repeating: "long ", count: 40),
    ]
    for string in strings {
      XCTAssertEqual(try directHash(string), try treeHash(string), string)
      XCTAssertEqual(try directHash([string: string]), try treeHash([string: string]), string)
    }
  }

  func testNestedOptionalsKeepTheirMarkers() throws {
    let values: [Int???] = [nil, .some(nil), .some(.some(nil)), 3]
    for value in values {
      XCTAssertEqual(try directHash(value), try treeHash(value), "\(String(describing: value))")
      XCTAssertEqual(try directHash([value]), try treeHash([value]))
    }
    // Different optionals hash differently.
    XCTAssertEqual(Set(try values.map { try directHash($0) }).count, 4)
  }

  func testDatesURLsAndUUIDs() throws {
    let dates = [
      Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.25),
      Date(timeIntervalSince1970: -70_000_000_000), Date.distantFuture,
      Date(timeIntervalSinceReferenceDate: .infinity),
    ]
    for date in dates { XCTAssertEqual(try directHash(date), try treeHash(date), "\(date)") }
    let base = URL(string: "https://example.com/a/")!
    let urls = [
      URL(string: "https://example.com/path?q=1#frag")!, URL(fileURLWithPath: "/tmp/x y"),
      URL(string: "b/c", relativeTo: base)!,
    ]
    for url in urls { XCTAssertEqual(try directHash(url), try treeHash(url), "\(url)") }
    let uuid = UUID(uuidString: "5F0C1A2B-0000-4000-8000-00000000000A")!
    XCTAssertEqual(try directHash([uuid: [uuid]]), try treeHash([uuid: [uuid]]))
  }

  func testHandWrittenEncodersWithNestedContainersWrittenOutOfOrder() throws {
    for count in [0, 1, 63, 64, 65, 130, 200] {
      let value = OutOfOrder(count: count)
      XCTAssertEqual(try directHash(value), try treeHash(value), "count \(count)")
      XCTAssertEqual(try directHash([value]), try treeHash([value]), "count \(count)")
    }
  }

  func testAValueThatAsksForTwoContainersThrowsTheTreeEncodersError() throws {
    XCTAssertThrowsError(try directHash(TwoContainers()))
    let direct = try? StableHashEncoder().stableHash(of: [TwoContainers()])
    XCTAssertNil(direct)
    var treeError = ""
    var hashError = ""
    do { _ = try TraceValueEncoder().encode([TwoContainers()]) } catch { treeError = "\(error)" }
    do { _ = try StableHashEncoder().stableHash(of: [TwoContainers()]) } catch {
      hashError = "\(error)"
    }
    XCTAssertFalse(treeError.isEmpty)
    XCTAssertEqual(hashError, treeError)
  }

  func testClassInstancesReplacedHashAsTheRecorderWritesThem() throws {
    let value = Holder(name: "n", box: Box(), items: [Holder.Item(box: Box())])
    let tree = try TraceValueEncoder().encodeReplacingClassInstances(value).value
    XCTAssertEqual(try directHash(value, replacing: true), tree.stableHash)
    XCTAssertEqual(
      try StableHashEncoder(replacingClassInstances: true).stableHash(of: value), tree.stableHash)
    XCTAssertEqual(try directHash(value), try treeHash(value))
    XCTAssertNotEqual(try directHash(value), tree.stableHash)
  }

  /// A spare level keeps the keyed container it handed out last, which refers to it: the
  /// pool breaks that cycle when it goes, so its levels go with it.
  func testASpareLevelGoesWithItsPool() throws {
    weak var spare: HashingEncoding?
    do {
      let hasher = StableHashEncoder(replacingClassInstances: true)
      let value = Holder(name: "n", box: Box(), items: [])
      let tree = try TraceValueEncoder().encodeReplacingClassInstances(value).value
      XCTAssertEqual(try hasher.hashWithoutTree(value), tree.stableHash)
      // The root level, the last one recycled: it asked for a keyed container.
      let level = hasher.level(parent: nil, key: .none)
      spare = level
      hasher.recycle(level)
      XCTAssertEqual(try hasher.hashWithoutTree(value), tree.stableHash)
    }
    XCTAssertNil(spare)
  }

  /// A level keeps the keyed containers it handed out last (of two key types) and hands each
  /// out again for its own keys alone: asked in turn for three key types, one more than it
  /// keeps, each container it hands out writes its own keys into the level.
  func testALevelHandsItsKeptContainerOutForItsKeysAlone() throws {
    let hasher = StableHashEncoder()
    let level = hasher.level(parent: nil, key: .none)
    defer { hasher.recycle(level) }
    var expected = StableWordBuffer()
    for round in 0..<3 {
      var first = level.container(keyedBy: FirstKeys.self)
      try first.encode(round, forKey: .value)
      var again = level.container(keyedBy: FirstKeys.self)
      try again.encode(round + 10, forKey: .value)
      var second = level.container(keyedBy: SecondKeys.self)
      try second.encode("\(round)", forKey: .other)
      var third = level.container(keyedBy: ThirdKeys.self)
      try third.encode(round == 1, forKey: .flag)
      var secondAgain = level.container(keyedBy: SecondKeys.self)
      try secondAgain.encode(round, forKey: .other)
      for (key, value) in [
        ("value", TraceValue.int(Int64(round))), ("value", .int(Int64(round + 10))),
        ("other", .string("\(round)")), ("flag", .bool(round == 1)),
        ("other", .int(Int64(round))),
      ] {
        MerkleHash.combine(string: key, into: &expected)
        MerkleHash.combineWords(value, into: &expected)
      }
    }
    XCTAssertEqual(level.count, 15)
    XCTAssertEqual(level.buffer.words, expected.words)
  }

  /// The memo compares a place's value by the bytes its type's `ValueBytes` names: the same
  /// fields behind other padding are the value hashed before, and are not encoded again; a
  /// changed field is.
  func testTheMemoComparesTheBytesItIsGiven() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true) { type in
      PaddedBytes(fields: type == Padded.self ? [0..<1, 8..<16] : nil)
    }
    let encoder = TraceValueEncoder()
    var value = Padded(flag: true, number: 3)
    XCTAssertEqual(MemoryLayout<Padded>.size, 16)
    XCTAssertEqual(
      try hasher.hashWithoutTree(value),
      try encoder.encodeReplacingClassInstances(value).value.stableHash)
    let encoded = Padded.encodings
    for padding in [0xAB, 0x01, 0x00] as [UInt8] {
      withUnsafeMutableBytes(of: &value) { $0[3] = padding }
      XCTAssertEqual(
        try hasher.hashWithoutTree(value),
        try encoder.encodeReplacingClassInstances(value).value.stableHash)
    }
    // Each tree encoding above encoded it once; the hasher did not.
    XCTAssertEqual(Padded.encodings, encoded + 3)
    value.number = 4
    XCTAssertEqual(
      try hasher.hashWithoutTree(value),
      try encoder.encodeReplacingClassInstances(value).value.stableHash)
    XCTAssertEqual(Padded.encodings, encoded + 5)
  }

  /// A place of the memo holds values of different types from one value to the next (an enum
  /// case's payload: an optional, a set, a dictionary, a value holding a class instance, a
  /// plain struct): each is encoded by what its own type is, whatever the place held before.
  func testAPlaceWhoseTypeChangesIsEncodedByItsNewType() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true)
    let encoder = TraceValueEncoder()
    let values: [Shifting] = [
      .optional(nil), .optional(7), .set([3, 1, 2]), .dictionary(["b": 2, "a": 1]),
      .holder(Holder(name: "h", box: Box(), items: [])), .optional(8), .plain(Flag.on),
      .set([]), .optional(nil), .dictionary([:]),
      .holder(Holder(name: "i", box: Box(), items: [])), .plain(.off),
    ]
    for round in 0..<3 {
      for (index, value) in values.enumerated() {
        let tree = try encoder.encodeReplacingClassInstances(value).value
        XCTAssertEqual(try hasher.hashWithoutTree(value), tree.stableHash, "\(round), \(index)")
      }
    }
    XCTAssertNotEqual(
      try hasher.hashWithoutTree(Shifting.optional(nil)),
      try hasher.hashWithoutTree(Shifting.optional(0)))
  }
}

private enum FirstKeys: String, CodingKey { case value }
private enum SecondKeys: String, CodingKey { case other }
private enum ThirdKeys: String, CodingKey { case flag }

/// An enum whose payload place holds a different type in each case.
private enum Shifting: Encodable {
  case optional(Int?)
  case set(Set<Int>)
  case dictionary([String: Int])
  case holder(Holder)
  case plain(Flag)
}

// MARK: - Random values

private indirect enum Node: Encodable {
  case leaf
  case number(Int)
  case pair(Double, label: String)
  case nested(Node?)
  case list([Node])
  case flag(Flag)
  case record(Record)
}

private enum Flag: String, Codable {
  case on, off
}

private struct Record: Encodable {
  var id: UUID
  var when: Date
  var link: URL?
  var maybe: Int??
  var deep: String???
  var names: [String: Bool]
  var byNumber: [Int: Node]
  var byUUID: [UUID: Int8]
  var tags: Set<Int16>
  var blob: Data
  var big: UInt64
  var ratio: Float
  var children: [Node]
  var optionalNode: Node?
  var pairs: [[Node?]]
  var box = Box()
}

private enum Walk {
  static let texts = ["", "a", "quote\"d", "back\\", "new\nline", "ü", "🙂", "twelve chars"]
  static let doubles: [Double] = [
    0, -0.0, .nan, .infinity, -.infinity, Double(bitPattern: 0x1234), 3.25, -7,
  ]

  static func pick<T>(_ values: [T], _ random: inout SplitMix) -> T {
    values[Int(random.next() % UInt64(values.count))]
  }

  static func chance(_ percent: UInt64, _ random: inout SplitMix) -> Bool {
    random.next() % 100 < percent
  }

  static func node(_ random: inout SplitMix, depth: Int) -> Node {
    let kinds: UInt64 = depth > 3 ? 4 : 7
    switch random.next() % kinds {
    case 0: return .leaf
    case 1: return .number(Int(bitPattern: UInt(truncatingIfNeeded: random.next())))
    case 2: return .pair(pick(doubles, &random), label: pick(texts, &random))
    case 3: return .flag(chance(50, &random) ? .on : .off)
    case 4: return .nested(chance(30, &random) ? nil : node(&random, depth: depth + 1))
    case 5: return .list(nodes(&random, depth: depth + 1))
    default: return .record(record(&random, depth: depth + 1))
    }
  }

  static func nodes(_ random: inout SplitMix, depth: Int) -> [Node] {
    // Now and then longer than a run of 64, near the top so the values stay small.
    let count =
      depth < 2 && chance(15, &random) ? 60 + Int(random.next() % 90) : Int(random.next() % 4)
    return (0..<count).map { _ in node(&random, depth: depth + 3) }
  }

  static func record(_ random: inout SplitMix, depth: Int) -> Record {
    let deepChoices: [String???] = [nil, .some(nil), .some(.some(nil)), pick(texts, &random)]
    let maybeChoices: [Int??] = [nil, .some(nil), Int(random.next() % 9)]
    let links = [
      nil, URL(string: "https://example.com/a?b=c"), URL(fileURLWithPath: "/tmp/a b"),
      URL(string: "rel", relativeTo: URL(string: "https://example.com/x/")),
    ]
    var names: [String: Bool] = [:]
    for _ in 0..<(random.next() % 4) { names[pick(texts, &random)] = chance(50, &random) }
    var byNumber: [Int: Node] = [:]
    if depth < 4 {
      for _ in 0..<(random.next() % 3) {
        byNumber[Int(random.next() % 50) - 25] = node(&random, depth: depth + 2)
      }
    }
    var byUUID: [UUID: Int8] = [:]
    for _ in 0..<(random.next() % 3) {
      byUUID[uuid(&random)] = Int8(truncatingIfNeeded: random.next())
    }
    return Record(
      id: uuid(&random),
      when: Date(timeIntervalSinceReferenceDate: pick(
        [0, 0.5, -1e12, 1e15, .nan, 12_345.678, Double(random.next() % 1_000_000)], &random)),
      link: pick(links, &random),
      maybe: pick(maybeChoices, &random),
      deep: pick(deepChoices, &random),
      names: names,
      byNumber: byNumber,
      byUUID: byUUID,
      tags: Set((0..<(random.next() % 5)).map { _ in Int16(truncatingIfNeeded: random.next()) }),
      blob: Data((0..<(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
      big: chance(50, &random) ? random.next() | 1 << 63 : random.next() % 100,
      ratio: Float(pick(doubles, &random)),
      children: depth < 4 ? nodes(&random, depth: depth) : [],
      optionalNode: depth < 4 && chance(50, &random) ? node(&random, depth: depth + 2) : nil,
      pairs: depth < 3 && chance(30, &random)
        ? (0..<(random.next() % 3)).map { _ in
          [nil, node(&random, depth: depth + 3)]
        } : [])
  }

  /// Changes one place of the record (sometimes to what it was).
  static func change(_ record: inout Record, _ random: inout SplitMix) {
    switch random.next() % 9 {
    case 0: record.maybe = pick([nil, .some(nil), 1, 2], &random)
    case 1: record.ratio = Float(pick(doubles, &random))
    case 2: record.names[pick(texts, &random)] = chance(50, &random)
    case 3:
      if record.children.isEmpty {
        record.children = nodes(&random, depth: 0)
      } else {
        record.children[Int(random.next() % UInt64(record.children.count))] = node(
          &random, depth: 3)
      }
    case 4: record.children.append(.pair(pick(doubles, &random), label: pick(texts, &random)))
    case 5: record.deep = pick([nil, .some(nil), .some(.some(nil)), "d"], &random)
    case 6: record.optionalNode = chance(50, &random) ? nil : node(&random, depth: 3)
    case 7: record.when = Date(timeIntervalSinceReferenceDate: pick(doubles, &random))
    default: record.big = random.next() % 3
    }
  }

  static func uuid(_ random: inout SplitMix) -> UUID {
    let a = random.next()
    let b = random.next()
    return withUnsafeBytes(of: (a, b)) { bytes in
      UUID(uuid: bytes.load(as: uuid_t.self))
    }
  }
}

// MARK: - Hand-written encoders

/// Writes a nested container, then more fields at its own level, then fills the nested one;
/// and an array whose elements are nested containers and super encoders.
private struct OutOfOrder: Encodable {
  let count: Int

  enum Keys: String, CodingKey { case first, list, last, parent }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var first = container.nestedContainer(keyedBy: Keys.self, forKey: .first)
    var list = container.nestedUnkeyedContainer(forKey: .list)
    try container.encode("after", forKey: .last)
    try first.encode(count, forKey: .last)
    for index in 0..<count {
      switch index % 3 {
      case 0:
        var element = list.nestedContainer(keyedBy: Keys.self)
        try element.encode(index, forKey: .first)
      case 1:
        try list.encode(index)
      default:
        var single = list.superEncoder().singleValueContainer()
        try single.encode("element \(index)")
      }
    }
    try first.encode(true, forKey: .first)
    try ["a": 1].encode(to: container.superEncoder(forKey: .parent))
  }
}

private struct TwoContainers: Encodable {
  enum Keys: CodingKey { case a }

  func encode(to encoder: Encoder) throws {
    var keyed = encoder.container(keyedBy: Keys.self)
    try keyed.encode(1, forKey: .a)
    var unkeyed = encoder.unkeyedContainer()
    try unkeyed.encode(2)
  }
}

private final class Box: Codable {
  var hits = 3
}

private struct Holder: Encodable {
  struct Item: Encodable {
    let box: Box
  }
  let name: String
  let box: Box
  let items: [Item]
}

/// A `Bool`, 7 bytes of padding and an `Int`; counts its encodings.
private struct Padded: Encodable {
  nonisolated(unsafe) static var encodings = 0
  var flag: Bool
  var number: Int

  private enum CodingKeys: String, CodingKey { case flag, number }

  func encode(to encoder: Encoder) throws {
    Padded.encodings += 1
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(flag, forKey: .flag)
    try container.encode(number, forKey: .number)
  }
}

/// The given byte ranges of a value, or all of them.
private struct PaddedBytes: ValueBytes {
  let fields: [Range<Int>]?

  var ranges: [Range<Int>]? { fields }
}

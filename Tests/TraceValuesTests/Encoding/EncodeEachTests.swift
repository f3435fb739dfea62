import Foundation
import TraceValues
import XCTest

/// `TraceValueEncoder.encodeEachReplacingClassInstances` encodes many values of one type with
/// one root level and one look-up of the type: each value's tree and replaced paths must be
/// exactly what `encodeReplacingClassInstances` gives for it alone.
final class EncodeEachTests: XCTestCase {
  struct Todo: Encodable {
    var id: UUID
    var title: String
    var isComplete: Bool
  }

  /// Custom key names (one with a leading `$`) and an optional written as `null`.
  struct Renamed: Encodable {
    var identifier: Int
    var label: String?

    enum CodingKeys: String, CodingKey {
      case identifier = "id"
      case label = "$name"
    }
  }

  /// A hand-written `encode(to:)`: a computed value, a nested unkeyed container, a key written
  /// twice, and a super encoder.
  struct HandWritten: Encodable {
    var base: Int
    var values: [Int]

    enum Keys: String, CodingKey { case doubled, values, note }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(base * 2, forKey: .doubled)
      var list = container.nestedUnkeyedContainer(forKey: .values)
      for value in values { try list.encode(value) }
      try container.encode("first", forKey: .note)
      try container.encode("again", forKey: .note)
      var parent = container.superEncoder().singleValueContainer()
      try parent.encode(base)
    }
  }

  /// A hand-written single value.
  struct Celsius: Encodable {
    var degrees: Double

    func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(degrees)
    }
  }

  enum Mode: Encodable {
    case idle
    case loaded(count: Int)
  }

  final class Cache: Encodable {
    var hits = 0
  }

  /// A value holding a class instance one level down: it is encoded, its `cache` is not.
  struct Outer: Encodable {
    var name: String
    var inner: Inner

    struct Inner: Encodable {
      var cache: Cache
    }
  }

  private let encoder = TraceValueEncoder()

  /// What `encodeEachReplacingClassInstances` hands over, in order.
  private func each<T: Encodable>(_ values: [T]) throws -> [(Int, TraceValue, [TracePath])] {
    var encoded: [(Int, TraceValue, [TracePath])] = []
    try values.withUnsafeBufferPointer { buffer in
      try encoder.encodeEachReplacingClassInstances(buffer) { encoded.append(($0, $1, $2)) }
    }
    return encoded
  }

  /// Each value's JSON text through the batch, after checking it is the value encoded alone.
  private func jsonOfEach<T: Encodable>(
    _ values: [T], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String] {
    let batch = try each(values)
    XCTAssertEqual(batch.map(\.0), Array(values.indices), file: file, line: line)
    for (index, value) in values.enumerated() {
      let alone = try encoder.encodeReplacingClassInstances(value)
      XCTAssertEqual(batch[index].1, alone.value, "value \(index)", file: file, line: line)
      XCTAssertEqual(batch[index].2, alone.replaced, "value \(index)", file: file, line: line)
    }
    return batch.map(\.1.jsonString)
  }

  func testSynthesizedStructsAreEncodedAsAlone() throws {
    let id = UUID(uuidString: "7D0D0500-0000-4000-8000-00000000002A")!
    XCTAssertEqual(
      try jsonOfEach([
        Todo(id: id, title: "Todo 1", isComplete: true),
        Todo(id: id, title: "Todo \"2\"", isComplete: false),
      ]),
      [
        #"{"id":"7D0D0500-0000-4000-8000-00000000002A","title":"Todo 1","isComplete":true}"#,
        #"{"id":"7D0D0500-0000-4000-8000-00000000002A","title":"Todo \"2\"","isComplete":false}"#,
      ])
  }

  func testCustomKeysAndNilAreEncodedAsAlone() throws {
    XCTAssertEqual(
      try jsonOfEach([Renamed(identifier: 3, label: nil), Renamed(identifier: -4, label: "x")]),
      [#"{"id":3,"$$name":null}"#, #"{"id":-4,"$$name":"x"}"#])
  }

  func testAHandWrittenEncoderIsEncodedAsAlone() throws {
    XCTAssertEqual(
      try jsonOfEach([
        HandWritten(base: 5, values: [1, 2]), HandWritten(base: 0, values: []),
      ]),
      [
        #"{"doubled":10,"values":[1,2],"note":"first","note":"again","super":5}"#,
        #"{"doubled":0,"values":[],"note":"first","note":"again","super":0}"#,
      ])
    XCTAssertEqual(
      try jsonOfEach([Celsius(degrees: 21.5), Celsius(degrees: -3)]), ["21.5", "-3.0"])
  }

  func testEnumCasesAreEncodedAsAlone() throws {
    XCTAssertEqual(
      try jsonOfEach([Mode.loaded(count: 2), Mode.idle]),
      [#"{"$case":"loaded","count":2}"#, #"{"$case":"idle"}"#])
  }

  /// Leaves, optionals and classes are not encoded through the shared root: each is encoded
  /// alone, and still comes out as alone.
  func testLeavesOptionalsAndClassesAreEncodedAsAlone() throws {
    XCTAssertEqual(try jsonOfEach(["a", "b"]), [#""a""#, #""b""#])
    XCTAssertEqual(try jsonOfEach([Int?.some(1), nil]), ["1", "null"])
    let classes = try each([Cache(), Cache()])
    XCTAssertEqual(
      classes.map(\.1), Array(repeating: .string("<not recorded: Cache is a class>"), count: 2))
    XCTAssertEqual(classes.map(\.2), [[TracePath([])], [TracePath([])]])
  }

  /// A class instance inside each value: every value reports its own replaced path, once.
  func testReplacedPathsAreEachValuesOwn() throws {
    let values = [
      Outer(name: "a", inner: .init(cache: Cache())), Outer(name: "b", inner: .init(cache: Cache())),
    ]
    XCTAssertEqual(
      try jsonOfEach(values),
      [
        #"{"name":"a","inner":"<not recorded: Inner holds class instances>"}"#,
        #"{"name":"b","inner":"<not recorded: Inner holds class instances>"}"#,
      ])
    XCTAssertEqual(try each(values).map(\.2), [[TracePath([.key("inner")])], [TracePath([.key("inner")])]])
  }

  /// The encoders `Keeping` kept (a value holding a class instance would not be encoded).
  nonisolated(unsafe) private static var kept: [any Encoder] = []

  /// One value's encoder kept by its `encode(to:)`: the values after it are written to a level
  /// of their own, and writing through the kept encoder later changes nothing handed over.
  func testAnEncoderKeptByAValueIsNotUsedForTheNext() throws {
    struct Keeping: Encodable {
      var keeps: Bool
      var number: Int
      enum Keys: String, CodingKey { case number, late }
      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(number, forKey: .number)
        if keeps { EncodeEachTests.kept.append(encoder) }
      }
    }
    Self.kept = []
    defer { Self.kept = [] }
    let values = [
      Keeping(keeps: false, number: 1), Keeping(keeps: true, number: 2),
      Keeping(keeps: false, number: 3), Keeping(keeps: true, number: 4),
      Keeping(keeps: false, number: 5),
    ]
    let handed = try each(values).map(\.1)
    XCTAssertEqual(Self.kept.count, 2)
    for kept in Self.kept {
      var late = kept.container(keyedBy: Keeping.Keys.self)
      try? late.encode(99, forKey: .late)
      var single = kept.singleValueContainer()
      try? single.encode("late")
    }
    XCTAssertEqual(
      handed.map(\.jsonString),
      [#"{"number":1}"#, #"{"number":2}"#, #"{"number":3}"#, #"{"number":4}"#, #"{"number":5}"#])
    XCTAssertEqual(
      try jsonOfEach(values),
      [#"{"number":1}"#, #"{"number":2}"#, #"{"number":3}"#, #"{"number":4}"#, #"{"number":5}"#])
  }

  /// Values of one type that ask for different containers (a single value, a keyed one, an
  /// unkeyed one, none): each is written as alone, whatever the one before it asked for.
  func testEachValueStartsFromAnEmptyLevel() throws {
    enum Shape: Encodable {
      case single(String), keyed(Int), unkeyed([Int]), nothing
      enum Keys: String, CodingKey { case value }
      func encode(to encoder: Encoder) throws {
        switch self {
        case .single(let text):
          var container = encoder.singleValueContainer()
          try container.encode(text)
        case .keyed(let number):
          var container = encoder.container(keyedBy: Keys.self)
          try container.encode(number, forKey: .value)
        case .unkeyed(let numbers):
          var container = encoder.unkeyedContainer()
          for number in numbers { try container.encode(number) }
        case .nothing:
          break
        }
      }
    }
    XCTAssertEqual(
      try jsonOfEach([
        Shape.single("a"), .keyed(1), .unkeyed([2, 3]), .keyed(4), .nothing, .unkeyed([]),
        .single("b"), .nothing,
      ]),
      [#""a""#, #"{"value":1}"#, "[2,3]", #"{"value":4}"#, "{}", "[]", #""b""#, "{}"])
  }

  func testNoValuesCallsNothing() throws {
    XCTAssertTrue(try each([Todo]()).isEmpty)
  }

  /// A failing value stops the batch with its error, as encoding it alone would.
  func testAThrowingValueStopsTheBatch() throws {
    struct Failing: Encodable {
      var fails: Bool
      struct Refused: Error {}
      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EncodeEachTests.Renamed.CodingKeys.self)
        try container.encode(1, forKey: .identifier)
        if fails { throw Refused() }
      }
    }
    var seen: [Int] = []
    let values = [Failing(fails: false), Failing(fails: true), Failing(fails: false)]
    XCTAssertThrowsError(
      try values.withUnsafeBufferPointer { buffer in
        try encoder.encodeEachReplacingClassInstances(buffer) { index, _, _ in seen.append(index) }
      }
    ) { XCTAssertTrue($0 is Failing.Refused) }
    XCTAssertEqual(seen, [0])
    // The thread's containers are free again: the next encoding writes its own fields.
    XCTAssertEqual(
      try encoder.encode(Renamed(identifier: 9, label: "z")).jsonString, #"{"id":9,"$$name":"z"}"#)
  }
}

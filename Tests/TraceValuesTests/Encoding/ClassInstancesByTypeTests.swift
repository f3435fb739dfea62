import TraceValues
import XCTest

/// Whether a value is written as a placeholder (it holds class instances, which change in
/// place) is decided from its type, whatever value of it comes first: each case of an enum
/// (a value by its case), a generic argument, an empty collection's element type. Where the
/// type cannot say (an existential), each value decides.
final class ClassInstancesByTypeTests: XCTestCase {
  final class Box: Encodable {
    var value = 0
  }

  struct Point: Encodable {
    var x = 1
    var y = 2
  }

  /// A count that is a number, or a box's: its second case holds a class.
  enum Count: Encodable {
    case plain(Int)
    case boxed(Box)
  }

  enum Loadable<Value: Encodable>: Encodable {
    case idle
    case loaded(Value)
  }

  enum Tree: Encodable {
    case leaf(Int)
    indirect case node(Box)
  }

  enum Shape: Encodable {
    case dot(Int)
    case label(String)
    case framed(Box)
    case empty
  }

  /// Cases without a payload before and between those with one.
  enum Phase: Encodable {
    case idle
    case boxed(Box)
    case waiting
    case counted(Int)
    case named(String)
  }

  enum Pair: Encodable {
    case one(Int)
    case pair(Int, Box)
  }

  struct Watch: Encodable {
    var name = "watch"
    weak var target: Box?
  }

  struct Slot: Encodable {
    var box: Box?
  }

  struct Shelf: Encodable {
    var boxes: [Box] = []
  }

  struct Index: Encodable {
    var boxes: [String: Box] = [:]
  }

  struct Counts: Encodable {
    var counts: [Count]
  }

  /// A field whose type cannot say what it holds.
  struct Holder: Encodable {
    var value: any Encodable

    enum CodingKeys: CodingKey { case value }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(value, forKey: .value)
    }
  }

  /// Tuples at a stored property's place: their elements are positions as stored properties
  /// are (the value's `encode(to:)` reads `pair.1` as it reads any property).
  struct TuplePair: Encodable {
    var pair: (Int, Box)

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(pair.0)
    }
  }

  struct LabelledTuple: Encodable {
    var tuple: (a: Int, b: [Box])

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(tuple.a)
    }
  }

  struct NestedTuple: Encodable {
    var tuple: (Int, (String, Box?))

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(tuple.1.0)
    }
  }

  struct TupleArray: Encodable {
    var pairs: [(Int, Box)]

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(pairs.map(\.0))
    }
  }

  struct PlainTuple: Encodable {
    var tuple: (Int, (String, [Point]))

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(tuple.0)
      try container.encode(tuple.1.0)
      try container.encode(tuple.1.1)
    }
  }

  /// A tuple inside a case's payload, below the payload's own values.
  enum DeepPair: Encodable {
    case one(Int)
    case pair(Int, (Int, Box))

    func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .one(let value), .pair(let value, _): try container.encode(value)
      }
    }
  }

  /// A tuple element whose type cannot say what it holds.
  struct TupleHolder: Encodable {
    var tuple: (Int, any Encodable)

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(tuple.0)
      try container.encode(tuple.1)
    }
  }

  /// Existentials a value's type cannot decide: `Any`, `any Error`, and an array of them.
  struct Mixed: Encodable {
    var any: Any
    var error: any Error
    var list: [any Encodable]

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(list.count)
    }
  }

  struct Failure: Error {}
  final class ClassFailure: Error {}

  /// Only the values of a case that holds a class are placeholders: decided by the value's
  /// case, whichever came first.
  func testAnEnumValueIsAPlaceholderOnlyInACaseThatHoldsAClass() throws {
    XCTAssertEqual(
      try encoded(Count.boxed(Box())), #""<not recorded: Count holds class instances>" at [root]"#)
    XCTAssertEqual(try encoded(Count.plain(1)), ".plain(1)")
    XCTAssertEqual(
      try encoded(Count.boxed(Box())), #""<not recorded: Count holds class instances>" at [root]"#)
  }

  func testAGenericEnumHoldsWhatItsArgumentIs() throws {
    XCTAssertEqual(try encoded(Loadable<Box>.idle), ".idle")
    XCTAssertEqual(
      try encoded(Loadable<Box>.loaded(Box())),
      #""<not recorded: Loadable<Box> holds class instances>" at [root]"#)
    XCTAssertEqual(try encoded(Loadable<Point>.idle), ".idle")
    XCTAssertEqual(try encoded(Loadable<Point>.loaded(Point())), ".loaded((x: 1, y: 2))")
  }

  func testAnIndirectCaseMultiplePayloadsAndATuplePayloadAreRead() throws {
    XCTAssertEqual(try encoded(Tree.leaf(1)), ".leaf(1)")
    XCTAssertEqual(
      try encoded(Tree.node(Box())), #""<not recorded: Tree holds class instances>" at [root]"#)
    XCTAssertEqual(
      try [Shape.dot(1), .label("a"), .framed(Box()), .empty].map(encoded),
      [
        ".dot(1)", #".label("a")"#, #""<not recorded: Shape holds class instances>" at [root]"#,
        ".empty",
      ])
    XCTAssertEqual(try encoded(Pair.one(1)), ".one(1)")
    XCTAssertEqual(
      try encoded(Pair.pair(1, Box())), #""<not recorded: Pair holds class instances>" at [root]"#)
  }

  /// The runtime numbers the cases with a payload first, then those without, whatever their
  /// declared order: each value's case is found by that number.
  func testCasesWithoutAPayloadDeclaredFirstAreTheirOwnCases() throws {
    XCTAssertEqual(
      try [Phase.idle, .boxed(Box()), .waiting, .counted(2), .named("b")].map(encoded),
      [
        ".idle", #""<not recorded: Phase holds class instances>" at [root]"#, ".waiting",
        ".counted(2)", #".named("b")"#,
      ])
  }

  func testWeakOptionalAndEmptyCollectionsOfAClassHoldClassInstances() throws {
    XCTAssertEqual(
      try encoded(Watch()), #""<not recorded: Watch holds class instances>" at [root]"#)
    XCTAssertEqual(try encoded(Slot()), #""<not recorded: Slot holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(Shelf()), #""<not recorded: Shelf holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(Index()), #""<not recorded: Index holds class instances>" at [root]"#)
  }

  /// An array of an enum is left to its elements, each decided by its case.
  func testAnArrayOfAnEnumWhoseFirstElementIsPlainIsLeftToItsElements() throws {
    XCTAssertEqual(
      try encoded(Counts(counts: [.plain(1), .boxed(Box()), .plain(2)])),
      #"(counts: [.plain(1), "<not recorded: Count holds class instances>", .plain(2)]) "#
        + "at [counts[1]]")
  }

  /// Each value decides: a struct, then a class, then a struct again.
  func testAnExistentialFieldIsDecidedByEachValue() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true)
    let values = [Holder(value: Point()), Holder(value: Box()), Holder(value: Point(x: 3))]
    XCTAssertEqual(
      try values.map(encoded),
      [
        "(value: (x: 1, y: 2))",
        #""<not recorded: Holder holds class instances>" at [root]"#,
        "(value: (x: 3, y: 2))",
      ])
    XCTAssertEqual(
      try values.map { try hasher.stableHash(of: $0) },
      try values.map { try TraceValueEncoder().encodeReplacingClassInstances($0).value.stableHash })
  }

  /// A tuple property is decided by its elements' types, through optionals, arrays and
  /// nested tuples, as a stored property is; an array of tuples by the tuple's elements.
  func testATuplePropertyIsDecidedByItsElements() throws {
    XCTAssertEqual(
      try encoded(TuplePair(pair: (1, Box()))),
      #""<not recorded: TuplePair holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(LabelledTuple(tuple: (a: 1, b: []))),
      #""<not recorded: LabelledTuple holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(NestedTuple(tuple: (1, ("a", nil)))),
      #""<not recorded: NestedTuple holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(TupleArray(pairs: [])),
      #""<not recorded: TupleArray holds class instances>" at [root]"#)
    XCTAssertEqual(
      try encoded(PlainTuple(tuple: (1, ("a", [Point()])))), #"[1, "a", [(x: 1, y: 2)]]"#)
    XCTAssertEqual(try encoded(DeepPair.one(1)), "1")
    XCTAssertEqual(
      try encoded(DeepPair.pair(1, (2, Box()))),
      #""<not recorded: DeepPair holds class instances>" at [root]"#)
  }

  /// An existential in a tuple, `Any`, an array of existentials: each value decides, by what
  /// it holds now.
  func testExistentialsInTuplesAndArraysAreDecidedByEachValue() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true)
    let values = [
      TupleHolder(tuple: (1, Point())), TupleHolder(tuple: (2, Box())),
      TupleHolder(tuple: (3, [Point()])), TupleHolder(tuple: (4, [Box()])),
      TupleHolder(tuple: (5, Point(x: 3))),
    ]
    XCTAssertEqual(
      try values.map(encoded),
      [
        "[1, (x: 1, y: 2)]", #""<not recorded: TupleHolder holds class instances>" at [root]"#,
        "[3, [(x: 1, y: 2)]]", #""<not recorded: TupleHolder holds class instances>" at [root]"#,
        "[5, (x: 3, y: 2)]",
      ])
    XCTAssertEqual(
      try values.map { try hasher.stableHash(of: $0) },
      try values.map { try TraceValueEncoder().encodeReplacingClassInstances($0).value.stableHash })
    let mixed = [
      Mixed(any: 1, error: Failure(), list: [Point()]),
      Mixed(any: Box(), error: Failure(), list: []),
      Mixed(any: 1, error: ClassFailure(), list: []),
      Mixed(any: [Point()], error: Failure(), list: [Point(), Box()]),
      Mixed(any: [1: [Box()]], error: Failure(), list: []),
      Mixed(any: "a", error: Failure(), list: [1, "a"]),
    ]
    XCTAssertEqual(
      try mixed.map(encoded),
      ["[1]"] + Array(repeating: #""<not recorded: Mixed holds class instances>" at [root]"#, count: 4) + ["[2]"])
  }

  /// The tree, and where class instances were replaced if anywhere.
  private func encoded<T: Encodable>(_ value: T) throws -> String {
    let (tree, replaced) = try TraceValueEncoder().encodeReplacingClassInstances(value)
    guard !replaced.isEmpty else { return "\(tree)" }
    let paths = replaced.map { $0.components.isEmpty ? "[root]" : "[\($0)]" }
    return "\(tree) at \(paths.joined(separator: ", "))"
  }
}

import Foundation
import TraceValues
import XCTest

/// A small stand-in for swift-identified-collections' `IdentifiedArray`: ordered, identified,
/// encoded as a plain array of its elements.
struct IdentifiedArrayOf<Element: Identifiable & Codable & Equatable>: Codable, Equatable
where Element.ID: Codable {
  private(set) var ids: [Element.ID] = []
  private var storage: [Element.ID: Element] = [:]

  init(_ elements: [Element]) {
    for element in elements {
      ids.append(element.id)
      storage[element.id] = element
    }
  }

  var elements: [Element] { ids.compactMap { storage[$0] } }

  init(from decoder: Decoder) throws {
    self.init(try [Element](from: decoder))
  }

  func encode(to encoder: Encoder) throws {
    try elements.encode(to: encoder)
  }
}

struct Todo: Codable, Equatable, Identifiable {
  var id: UUID
  var title: String
  var isDone = false
}

enum Priority: String, Codable, Equatable { case low, high }
enum Level: Int, Codable, Equatable {
  case one = 1
  case two = 2
}

enum Destination: Codable, Equatable {
  case childDetail(Todo)
  case alert(title: String, count: Int)
  case pair(Int, String?)
  case none
}

enum Wrapper<Value: Codable & Equatable>: Codable, Equatable {
  case loaded(Value)
  case loading
}

struct Point: Codable, Hashable {
  var x: Int
  var y: Int
}

struct AppState: Codable, Equatable {
  var count = 1
  var title: String? = "Inbox"
  var missing: String? = nil
  var doubleSome: Int?? = .some(nil)
  var doubleNone: Int?? = nil
  var tripleSome: Int??? = .some(.some(nil))
  var optionals: [Int??] = [1, .some(nil), nil]
  var tags: [String: Int] = ["zeta": 26, "alpha": 1, "mid": 13]
  var names: [Int: String] = [10: "ten", 2: "two", -1: "minus one"]
  var byPoint: [Point: String] = [Point(x: 2, y: 0): "b", Point(x: 1, y: 5): "a"]
  var byUUID: [UUID: Bool] = [
    UUID(uuidString: "00000000-0000-0000-0000-000000000002")!: true,
    UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: false,
  ]
  var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
  var date = Date(timeIntervalSinceReferenceDate: 1234.5678)
  var url = URL(string: "https://example.com/a?b=1")!
  var relativeURL = URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/"))!
  var data = Data([0, 1, 2, 255])
  var priority = Priority.high
  var level = Level.two
  var floats: [Float] = [1.5, -0]
  var small: UInt8 = 200
  var big: UInt64 = .max
  var todos = IdentifiedArrayOf([
    Todo(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, title: "Buy milk"),
    Todo(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!, title: "Walk"),
  ])
  var destination: Destination? = .alert(title: "Delete?", count: 2)
  var destinations: [Destination] = [
    .none, .pair(1, nil),
    .childDetail(Todo(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000C")!, title: "x")),
  ]
  var wrapper = Wrapper<[Int]>.loaded([1, 2])
  var nested: [[String: [Int?]]] = [["b": [1, nil], "a": []]]
}

final class TraceValueEncoderTests: XCTestCase {
  func testEncodesStructsIntoOrderedObjects() throws {
    struct Small: Codable {
      var count = 3
      var name = "a\n"
      var on = true
      var ratio = 0.5
    }
    XCTAssertEqual(
      try TraceValueEncoder().encode(Small()).description,
      #"(count: 3, name: "a\n", on: true, ratio: 0.5)"#)
  }

  func testSynthesizedEnumsBecomeEnumCases() throws {
    let encoder = TraceValueEncoder()
    XCTAssertEqual(
      try encoder.encode(Destination.alert(title: "Hi", count: 2)),
      .enumCase("alert", [TraceField("title", .string("Hi")), TraceField("count", .int(2))]))
    XCTAssertEqual(try encoder.encode(Destination.none), .enumCase("none", []))
    XCTAssertEqual(
      try encoder.encode(Destination.pair(1, nil)),
      .enumCase("pair", [TraceField("_0", .int(1)), TraceField("_1", .null)]))
    XCTAssertEqual(
      try encoder.encode(Wrapper.loaded("x")),
      .enumCase("loaded", [TraceField("_0", .string("x"))]))
    XCTAssertEqual(try encoder.encode(Priority.high), .string("high"))
    XCTAssertEqual(try encoder.encode(Level.two), .int(2))
  }

  func testAStructWithACaseLikeFieldStaysAnObject() throws {
    struct Holder: Codable { var loaded: [Int] = [1] }
    XCTAssertEqual(
      try TraceValueEncoder().encode(Holder()), .object([TraceField("loaded", .array([.int(1)]))]))
  }

  func testDictionariesAreWrittenInSortedKeyOrder() throws {
    let state = AppState()
    let tree = try TraceValueEncoder().encode(state)
    XCTAssertEqual(
      tree.value(at: try TracePath(parsing: "tags"))?.description, "(alpha: 1, mid: 13, zeta: 26)")
    XCTAssertEqual(
      tree.value(at: try TracePath(parsing: "names"))?.description,
      #"("-1": "minus one", "2": "two", "10": "ten")"#)
    XCTAssertEqual(
      tree.value(at: try TracePath(parsing: "byPoint"))?.description,
      #"[(x: 1, y: 5), "a", (x: 2, y: 0), "b"]"#)
    XCTAssertEqual(
      tree.value(at: try TracePath(parsing: "byUUID"))?.description,
      #"["00000000-0000-0000-0000-000000000001", false, "#
        + #""00000000-0000-0000-0000-000000000002", true]"#)
    // Many keys, inserted in another order, give the same tree and hash.
    var forward: [String: Int] = [:]
    var backward: [String: Int] = [:]
    for number in 0..<500 { forward["k\(number)"] = number }
    for number in (0..<500).reversed() { backward["k\(number)"] = number }
    let a = try TraceValueEncoder().encode(forward)
    let b = try TraceValueEncoder().encode(backward)
    XCTAssertEqual(a, b)
    XCTAssertEqual(a.stableHash, b.stableHash)
  }

  func testSetsAreWrittenInSortedOrderAndRoundTrip() throws {
    var forward = Set<String>()
    var backward = Set<String>()
    for number in 0..<300 { forward.insert("s\(number)") }
    for number in (0..<300).reversed() { backward.insert("s\(number)") }
    let a = try TraceValueEncoder().encode(forward)
    XCTAssertEqual(a, try TraceValueEncoder().encode(backward))
    XCTAssertEqual(
      try TraceValueEncoder().encode(Set([3, 1, 2])), .array([.int(1), .int(2), .int(3)]))
    XCTAssertEqual(try TraceValueDecoder().decode(Set<String>.self, from: a), forward)
  }

  func testFoundationValuesAndOptionalsHaveReadableLeaves() throws {
    let tree = try TraceValueEncoder().encode(AppState())
    func at(_ path: String) throws -> String? {
      tree.value(at: try TracePath(parsing: path))?.description
    }
    XCTAssertEqual(try at("id"), #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#)
    XCTAssertEqual(try at("date"), #""2001-01-01T00:20:34.5678Z""#)
    XCTAssertEqual(try at("url"), #""https://example.com/a?b=1""#)
    XCTAssertEqual(try at("data"), "<4 bytes: 000102ff>")
    XCTAssertEqual(try at("big"), "18446744073709551615")
    // `nil` keeps its field (as `null`); `.some(nil)` of a nested optional is marked.
    XCTAssertEqual(try at("missing"), "nil")
    XCTAssertEqual(try at("doubleSome"), ".Optional.some(nil)")
    XCTAssertEqual(try at("doubleNone"), "nil")
    XCTAssertEqual(try at("tripleSome"), ".Optional.some(.Optional.some(nil))")
    XCTAssertEqual(try at("optionals"), "[1, .Optional.some(nil), nil]")
    XCTAssertEqual(try at("todos[0].title"), #""Buy milk""#)
    XCTAssertEqual(
      try at(#"todos[id: "00000000-0000-0000-0000-00000000000B"].title"#), #""Walk""#)
    XCTAssertEqual(try at("destination.alert.count"), "2")
    XCTAssertEqual(try at("wrapper.loaded[1]"), "2")
  }

  func testEverythingRoundTripsExactly() throws {
    let state = AppState()
    let tree = try TraceValueEncoder().encode(state)
    XCTAssertEqual(try TraceValueDecoder().decode(AppState.self, from: tree), state)
    // Also through the JSON form, as a trace stores it.
    let stored = try TraceValue(json: tree.jsonString)
    XCTAssertEqual(try TraceValueDecoder().decode(AppState.self, from: stored), state)
    var changed = state
    changed.doubleSome = 5
    changed.tripleSome = .some(nil)
    changed.destination = nil
    changed.wrapper = .loading
    let back = try TraceValueDecoder().decode(
      AppState.self, from: TraceValueEncoder().encode(changed))
    XCTAssertEqual(back, changed)
  }

  func testTopLevelValuesRoundTrip() throws {
    func roundTrip<T: Codable & Equatable>(_ value: T, line: UInt = #line) throws {
      let tree = try TraceValueEncoder().encode(value)
      XCTAssertEqual(try TraceValueDecoder().decode(T.self, from: tree), value, line: line)
    }
    try roundTrip(Int??.some(nil))
    try roundTrip(Int???.some(.some(nil)))
    try roundTrip(Int???.some(nil))
    try roundTrip([Destination.none, .pair(2, "b")])
    try roundTrip(Int8.min)
    try roundTrip(UInt.max)
    try roundTrip(Double.nan.isNaN)
    try roundTrip("é")
    try roundTrip([Level: Int]())
  }

  func testEncodingErrorsCarryTheCodingPath() throws {
    struct Refuses: Encodable {
      func encode(to encoder: Encoder) throws {
        throw EncodingError.invalidValue(
          0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no"))
      }
    }
    struct Outer: Encodable { var items: [String: [Refuses]] = ["k": [Refuses()]] }
    XCTAssertThrowsError(try TraceValueEncoder().encode(Outer())) { error in
      guard case EncodingError.invalidValue(_, let context) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["items", "k", "Index 0"])
    }
    struct Confused: Encodable {
      func encode(to encoder: Encoder) throws {
        var keyed = encoder.container(keyedBy: TestKey.self)
        try keyed.encode(1, forKey: TestKey(stringValue: "a"))
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      }
    }
    // Below a dictionary's key, and as the value given to the encoder (its root level).
    for (value, path) in [(["x": Confused()] as any Encodable, ["x"]), (Confused(), [])] {
      XCTAssertThrowsError(try TraceValueEncoder().encode(value)) { error in
        guard case EncodingError.invalidValue(_, let context) = error else {
          return XCTFail("\(error)")
        }
        XCTAssertEqual(context.codingPath.map(\.stringValue), path)
        XCTAssertEqual(
          context.debugDescription,
          "A value asked for a unkeyed container after a keyed container at the same level")
      }
    }
  }

  /// The value given to the encoder writes into its root level: the same tree as at any level
  /// below, whatever containers it asks for (its coding paths: see
  /// `testEncodingErrorsCarryTheCodingPath`).
  func testTheRootValueEncodesAsAValueBelowIt() throws {
    struct Nesting: Encodable {
      func encode(to encoder: Encoder) throws {
        var keyed = encoder.container(keyedBy: TestKey.self)
        var first = keyed.nestedContainer(
          keyedBy: TestKey.self, forKey: TestKey(stringValue: "a"))
        try first.encode(1, forKey: TestKey(stringValue: "x"))
        var second = keyed.nestedUnkeyedContainer(forKey: TestKey(stringValue: "b"))
        try second.encode(2)
        var third = second.nestedContainer(keyedBy: TestKey.self)
        try third.encode(true, forKey: TestKey(stringValue: "y"))
        try keyed.encode("z", forKey: TestKey(stringValue: "c"))
      }
    }
    struct Wrapper: Encodable {
      func encode(to encoder: Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(Nesting())
      }
    }
    let tree = TraceValue.object([
      TraceField("a", .object([TraceField("x", .int(1))])),
      TraceField("b", .array([.int(2), .object([TraceField("y", .bool(true))])])),
      TraceField("c", .string("z")),
    ])
    XCTAssertEqual(try TraceValueEncoder().encode(Nesting()), tree)
    XCTAssertEqual(
      try TraceValueEncoder().encode(["k": Nesting()]), .object([TraceField("k", tree)]))
    XCTAssertEqual(try TraceValueEncoder().encode(Wrapper()), tree)
    let (value, replaced) = try TraceValueEncoder().encodeReplacingClassInstances(Nesting())
    XCTAssertEqual(value, tree)
    XCTAssertEqual(replaced, [])
  }

  func testDecodingErrorsCarryTheCodingPath() throws {
    let tree = try TraceValue(json: #"{"items":[{"id":1,"title":"a"},{"id":"x","title":"b"}]}"#)
    struct Item: Decodable {
      var id: Int
      var title: String
    }
    struct Box: Decodable { var items: [Item] }
    XCTAssertThrowsError(try TraceValueDecoder().decode(Box.self, from: tree)) { error in
      guard case DecodingError.typeMismatch(_, let context) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["items", "Index 1", "id"])
      XCTAssertEqual(context.debugDescription, "Expected Int, found a string")
    }
    let missing = try TraceValue(json: #"{"items":[{"id":1}]}"#)
    XCTAssertThrowsError(try TraceValueDecoder().decode(Box.self, from: missing)) { error in
      guard case DecodingError.keyNotFound(let key, let context) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(key.stringValue, "title")
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["items", "Index 0"])
    }
    XCTAssertThrowsError(try TraceValueDecoder().decode(UInt8.self, from: .int(300))) { error in
      guard case DecodingError.dataCorrupted(let context) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(context.debugDescription, "Number 300 does not fit in UInt8")
    }
    let reflected = TraceValue.reflected(typeName: "Foo", .object([]))
    XCTAssertThrowsError(try TraceValueDecoder().decode([String: Int].self, from: reflected)) {
      error in
      guard case DecodingError.dataCorrupted(let context) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(
        context.debugDescription, "A reflected Foo is read-only and cannot be decoded")
    }
  }
}

struct TestKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

import Foundation
import TraceValues
import XCTest

/// `TraceValueEncoder` shares one keyed container per key type and thread
/// (`KeyedContainerCache`): these values use one key type at several levels at once, keep a
/// container past their encoding, and encode on several threads, and every write must land in
/// its own value.
final class SharedKeyedContainerTests: XCTestCase {
  enum Keys: String, CodingKey { case a, b, c, d }

  /// `{a, b: {c, d: {a}}, d}` through nested containers of one key type, written out of order.
  struct Nested: Encodable {
    var base: Int

    func encode(to encoder: Encoder) throws {
      var outer = encoder.container(keyedBy: Keys.self)
      try outer.encode(base, forKey: .a)
      var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
      try inner.encode(base + 1, forKey: .c)
      var innermost = inner.nestedContainer(keyedBy: Keys.self, forKey: .d)
      try outer.encode(base + 2, forKey: .d)
      try innermost.encode("deep", forKey: .a)
    }
  }

  /// A value holding values of its own type: the same key type at every depth.
  struct Node: Encodable {
    var name: String
    var children: [Node] = []
    var last: Int

    enum CodingKeys: String, CodingKey { case name, children, last }
  }

  func testNestedContainersOfOneKeyTypeWriteAtTheirOwnDepth() throws {
    let encoded = try TraceValueEncoder().encode([Nested(base: 1), Nested(base: 10)])
    func nested(_ base: Int64) -> TraceValue {
      // a, b.c, b.d.a, d: the fields of each level, in the order they were added to it.
      .object([
        TraceField("a", .int(base)),
        TraceField(
          "b",
          .object([
            TraceField("c", .int(base + 1)),
            TraceField("d", .object([TraceField("a", .string("deep"))])),
          ])),
        TraceField("d", .int(base + 2)),
      ])
    }
    XCTAssertEqual(encoded, .array([nested(1), nested(10)]))
  }

  func testAValueOfItsOwnTypeKeepsEachLevelsFields() throws {
    let tree = Node(
      name: "root",
      children: [
        Node(name: "left", children: [Node(name: "leaf", last: 3)], last: 2),
        Node(name: "right", last: 4),
      ], last: 1)
    let encoded = try TraceValueEncoder().encode(tree)
    func node(_ name: String, _ children: [TraceValue], _ last: Int64) -> TraceValue {
      .object([
        TraceField("name", .string(name)), TraceField("children", .array(children)),
        TraceField("last", .int(last)),
      ])
    }
    XCTAssertEqual(
      encoded,
      node(
        "root", [node("left", [node("leaf", [], 3)], 2), node("right", [], 4)], 1))
    // The same again: the containers were let go of after the first encoding.
    XCTAssertEqual(try TraceValueEncoder().encode(tree), encoded)
  }

  /// Keeps its container in `Keeping.kept` and, when asked, writes through the one kept by
  /// the value before it.
  struct Keeping: Encodable {
    nonisolated(unsafe) static var kept: KeyedEncodingContainer<Keys>?
    nonisolated(unsafe) static var errors: [String] = []
    var value: Int
    var usesKept = false

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      if usesKept, var kept = Self.kept {
        do {
          try kept.encode(99, forKey: .d)
        } catch {
          Self.errors.append("\(error)")
        }
      }
      try container.encode(value, forKey: .a)
      Self.kept = container
    }
  }

  func testAContainerKeptPastItsValueThrowsAndWritesNothing() throws {
    Keeping.kept = nil
    Keeping.errors = []
    let encoded = try TraceValueEncoder().encode([
      Keeping(value: 1), Keeping(value: 2, usesKept: true), Keeping(value: 3, usesKept: true),
    ])
    XCTAssertEqual(
      encoded,
      .array([
        .object([TraceField("a", .int(1))]), .object([TraceField("a", .int(2))]),
        .object([TraceField("a", .int(3))]),
      ]))
    XCTAssertEqual(Keeping.errors.count, 2)
    XCTAssertTrue(
      Keeping.errors.allSatisfy {
        $0.contains("A keyed container of Keys was used after the value that asked for it")
      }, "\(Keeping.errors)")

    // After the encoding, too; and the next encoding of the key type is whole.
    var kept = try XCTUnwrap(Keeping.kept)
    XCTAssertThrowsError(try kept.encode(5, forKey: .b))
    XCTAssertThrowsError(try kept.encode("text", forKey: .b))
    XCTAssertEqual(kept.codingPath.count, 0)
    Keeping.kept = nil
    XCTAssertEqual(
      try TraceValueEncoder().encode(Nested(base: 7)),
      try TraceValueEncoder().encode(Nested(base: 7)))
    XCTAssertEqual(
      try TraceValueEncoder().encode(Keeping(value: 4)), .object([TraceField("a", .int(4))]))
    Keeping.kept = nil
  }

  /// A super encoder asked for by a level that already holds the container of its key type.
  struct WithSuper: Encodable {
    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var superContainer = container.superEncoder().container(keyedBy: Keys.self)
      try superContainer.encode(1, forKey: .a)
      try container.encode(2, forKey: .b)
      var keyedSuper = container.superEncoder(forKey: .c).container(keyedBy: Keys.self)
      try keyedSuper.encode(3, forKey: .d)
      try superContainer.encode(4, forKey: .b)
      try container.encode(5, forKey: .d)
    }
  }

  func testSuperEncodersWriteIntoTheirOwnObjects() throws {
    XCTAssertEqual(
      try TraceValueEncoder().encode([WithSuper(), WithSuper()]),
      .array(
        Array(
          repeating: .object([
            TraceField("super", .object([TraceField("a", .int(1)), TraceField("b", .int(4))])),
            TraceField("b", .int(2)),
            TraceField("c", .object([TraceField("d", .int(3))])),
            TraceField("d", .int(5)),
          ]), count: 2)))
  }

  /// `[[1, {a: [x, {b: 2}], c: 3}]]`: unkeyed in keyed in unkeyed, each level written to after
  /// its nested ones.
  struct Layered: Encodable {
    func encode(to encoder: Encoder) throws {
      var top = encoder.unkeyedContainer()
      try top.encode(1)
      var keyed = top.nestedContainer(keyedBy: Keys.self)
      var list = keyed.nestedUnkeyedContainer(forKey: .a)
      try list.encode("x")
      var deepest = list.nestedContainer(keyedBy: Keys.self)
      try keyed.encode(3, forKey: .c)
      try deepest.encode(2, forKey: .b)
    }
  }

  func testUnkeyedInKeyedInUnkeyed() throws {
    XCTAssertEqual(
      try TraceValueEncoder().encode(Layered()),
      .array([
        .int(1),
        .object([
          TraceField("a", .array([.string("x"), .object([TraceField("b", .int(2))])])),
          TraceField("c", .int(3)),
        ]),
      ]))
  }

  /// Encodes a `Nested` with another encoder in the middle of its own encoding.
  struct EncodesInside: Encodable {
    nonisolated(unsafe) static var inner: TraceValue?

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .a)
      Self.inner = try TraceValueEncoder().encode(Nested(base: 20))
      try container.encode(2, forKey: .b)
    }
  }

  func testAnEncodingInsideAnotherKeepsBothApart() throws {
    XCTAssertEqual(
      try TraceValueEncoder().encode(EncodesInside()),
      .object([TraceField("a", .int(1)), TraceField("b", .int(2))]))
    XCTAssertEqual(EncodesInside.inner, try TraceValueEncoder().encode(Nested(base: 20)))
  }

  struct Failing: Encodable {
    struct Failure: Error {}

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .a)
      throw Failure()
    }
  }

  func testAFailedEncodingLetsGoOfItsContainers() throws {
    XCTAssertThrowsError(try TraceValueEncoder().encode(Failing()))
    XCTAssertEqual(
      try TraceValueEncoder().encode(Nested(base: 1)),
      .object([
        TraceField("a", .int(1)),
        TraceField(
          "b",
          .object([
            TraceField("c", .int(2)), TraceField("d", .object([TraceField("a", .string("deep"))])),
          ])),
        TraceField("d", .int(3)),
      ]))
  }

  func testThreadsEncodingAtOnceKeepTheirOwnValues() throws {
    let expected = (0..<8).map { try? TraceValueEncoder().encode(Nested(base: $0 * 100)) }
    let lock = NSLock()
    nonisolated(unsafe) var results = Array(repeating: TraceValue?.none, count: 8)
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      var last: TraceValue?
      for _ in 0..<500 {
        last = try? TraceValueEncoder().encode(Nested(base: index * 100))
      }
      lock.withLock { results[index] = last }
    }
    XCTAssertEqual(lock.withLock { results }, expected)
  }
}

import ComposableCore
import Synchronization
import TraceKit
import XCTest

@testable import TraceRecorder

/// The walkers' keyed containers are made once per key type (`KeyedContainers`): a value
/// nested in another that writes with the same key type, and one that asks for two
/// containers, still put every field at its own level.
final class KeyedContainersTests: XCTestCase {
  /// One key type for every struct below, as a hand-written `encode(to:)` may share one.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  struct Inner: Codable, Equatable, Sendable {
    /// The calls of `encode(to:)`: what the encoder encoded again.
    static let encodings = Atomic<Int>(0)
    var depth = 0
    var note = "inner"

    func encode(to encoder: Encoder) throws {
      Self.encodings.add(1, ordering: .relaxed)
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(depth, forKey: AnyKey("depth"))
      try container.encode(note, forKey: AnyKey("note"))
    }
  }

  /// Writes a field, then a child with the same key type, then more fields: the fields after
  /// the child must still go to this level.
  struct Outer: Codable, Equatable, Sendable {
    var before = 1
    var inner = Inner()
    var presented: Inner?
    var after = "after"

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(before, forKey: AnyKey("before"))
      try container.encode(inner, forKey: AnyKey("inner"))
      try container.encode(presented, forKey: AnyKey("presented"))
      try container.encode(after, forKey: AnyKey("after"))
    }
  }

  /// Asks for its container twice, with two key types, writing through both in turn.
  struct TwoContainers: Codable, Equatable, Sendable {
    enum First: CodingKey { case a, child }
    var a = 0
    var child = Outer()
    var b = 0

    func encode(to encoder: Encoder) throws {
      var first = encoder.container(keyedBy: First.self)
      var second = encoder.container(keyedBy: AnyKey.self)
      try first.encode(a, forKey: .a)
      try first.encode(child, forKey: .child)
      try second.encode(b, forKey: AnyKey("b"))
    }
  }

  struct State: Codable, Equatable, Sendable {
    var outer = Outer()
    var two = TwoContainers()
    var count = 0
  }

  func testFieldsAfterAChildWithTheSameKeyTypeStayAtTheirLevel() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    let first = try encoder.encode(state)
    XCTAssertEqual(
      first.value.description,
      #"(outer: (before: 1, inner: (depth: 0, note: "inner"), presented: nil, "#
        + #"after: "after"), two: (a: 0, child: (before: 1, inner: (depth: 0, "#
        + #"note: "inner"), presented: nil, after: "after"), b: 0), count: 0)"#)

    state.outer.inner.depth = 1
    state.outer.after = "later"
    state.two.child.inner.note = "deep"
    state.two.b = 2
    let second = try encoder.encode(state)
    XCTAssertEqual(
      second.changes.map(\.description),
      [
        "set outer.inner.depth 1", #"set outer.after "later""#,
        #"set two.child.inner.note "deep""#, "set two.b 2",
      ])
    XCTAssertEqual(
      second.paths.map(\.description),
      ["outer.inner.depth", "outer.after", "two.child.inner.note", "two.b"])
    assertEncodesAsWhole(second, try expected(state), step: 2)

    state.outer.presented = Inner(depth: 5)
    state.two.child.presented = Inner(depth: 6, note: "p")
    let third = try encoder.encode(state)
    XCTAssertEqual(
      third.changes.map(\.description),
      [
        #"set outer.presented (depth: 5, note: "inner")"#,
        #"set two.child.presented (depth: 6, note: "p")"#,
      ])
    assertEncodesAsWhole(third, try expected(state), step: 3)

    state.outer.presented?.note = "q"
    state.count = 3
    let fourth = try encoder.encode(state)
    XCTAssertEqual(
      fourth.changes.map(\.description), [#"set outer.presented.note "q""#, "set count 3"])
    assertEncodesAsWhole(fourth, try expected(state), step: 4)

    // Both levels are still walked: a field after the children changes, and no child is
    // encoded again (a level whose container lost its walker is encoded whole, children too).
    Inner.encodings.store(0, ordering: .relaxed)
    state.outer.after = "last"
    state.two.b = 5
    let fifth = try encoder.encode(state)
    XCTAssertEqual(Inner.encodings.load(ordering: .relaxed), 0)
    XCTAssertEqual(fifth.changes.map(\.description), [#"set outer.after "last""#, "set two.b 5"])
    assertEncodesAsWhole(fifth, try expected(state), step: 5)
  }

  /// A container kept past the walk that made it writes nowhere: it throws.
  func testAContainerUsedAfterItsWalkThrows() throws {
    final class Escaped: @unchecked Sendable {
      var container: KeyedEncodingContainer<AnyKey>?
    }
    struct Escaping: Encodable {
      let box: Escaped
      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(1, forKey: AnyKey("one"))
        box.container = container
      }
    }
    let box = Escaped()
    var encoder = IncrementalEncoder()
    let result = try encoder.encode(Escaping(box: box))
    XCTAssertEqual(result.value.description, "(one: 1)")
    XCTAssertThrowsError(try box.container?.encode(2, forKey: AnyKey("two"))) { error in
      XCTAssertTrue(error is FieldWalker.Unsupported, "\(error)")
    }
  }

  private func expected<T: Encodable>(_ state: T) throws -> TraceValue {
    try TraceValueEncoder().encodeReplacingClassInstances(state).value
  }
}

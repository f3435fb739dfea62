import ComposableCore
import Foundation
import TraceKit
import TraceValues
import XCTest

@testable import TraceRecorder

/// The writer compares a field with the previous step's in the bytes that hold its value
/// (`SignificantBytes`): a copy of a struct does not keep the padding between its fields, and
/// an unchanged struct whose padding differs is not encoded again; a changed one always is.
final class SignificantBytesTests: XCTestCase {
  /// 7 bytes of padding after `flag`, 7 after `small`.
  struct Padded: Codable, Equatable, Sendable {
    var flag = false
    var count = 0
    var small: UInt8 = 0
    var name = ""
    var counted = Counted()
  }

  struct Dense: Codable, Equatable, Sendable {
    var a = 0
    var b = 0
  }

  enum Mode: Codable, Equatable, Sendable {
    case idle
    case busy(Int, flag: Bool)
  }

  final class Box: Codable, @unchecked Sendable {
    var hits = 0
  }

  struct Child: Codable, Equatable, Sendable {
    var on = false
    var padded = Padded()
    var maybe: Padded?
    var number: Int?
  }

  struct State: Codable, Equatable, Sendable {
    var child = Child()
    @PresentationState var sheet: Child?
    var mode = Mode.idle
    var dense = Dense()
    var tail: Bool = false
    var rows: IdentifiedArrayOf<Row> = []
  }

  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var done = false
    var padded = Padded()
  }

  func testAStructsBytesAreItsFieldsWithoutThePaddingBetweenThem() {
    XCTAssertEqual(MemoryLayout<Padded>.size, 48)
    XCTAssertEqual(SignificantBytes.of(Padded.self).ranges, [0..<1, 8..<17, 24..<48])
    XCTAssertNil(SignificantBytes.of(Dense.self).ranges)
    XCTAssertNil(SignificantBytes.of(Int.self).ranges)
    XCTAssertNil(SignificantBytes.of(String.self).ranges)
    XCTAssertNil(SignificantBytes.of(Mode.self).ranges)
    XCTAssertNil(SignificantBytes.of(Box.self).ranges)
    XCTAssertNil(SignificantBytes.of(Padded?.self).ranges)
    // Nested structs and an optional's payload are laid out too; `Int?` keeps its tag byte.
    XCTAssertEqual(
      SignificantBytes.of(Child.self).ranges,
      [0..<1, 8..<9, 16..<25, 32..<57, 64..<73, 80..<113])
  }

  func testEqualValuesWithOtherPaddingAreTheSameAndAnyChangeIsNot() {
    let value = Padded(flag: true, count: 3, small: 9, name: "n")
    let zeroed = Self.copy(value, padding: 0x00)
    let filled = Self.copy(value, padding: 0xA5)
    let bytes = SignificantBytes.of(Padded.self)
    XCTAssertFalse(Equality.same(zeroed, filled), "the padding differs")
    XCTAssertTrue(Equality.same(zeroed, filled, in: bytes))
    var changed = filled
    changed.small = 10
    XCTAssertFalse(Equality.same(zeroed, changed, in: bytes))
    changed = filled
    changed.flag = false
    XCTAssertFalse(Equality.same(zeroed, changed, in: bytes))
    changed = filled
    changed.counted.value = 1
    XCTAssertFalse(Equality.same(zeroed, changed, in: bytes))

    let child = Child(maybe: value, number: 4)
    let childBytes = SignificantBytes.of(Child.self)
    XCTAssertTrue(
      Equality.same(Self.copy(child, padding: 0), Self.copy(child, padding: 0xFF), in: childBytes))
    for other in [
      Child(maybe: nil, number: 4), Child(maybe: value, number: nil),
      Child(maybe: value, number: 0), Child(maybe: Padded(), number: 4),
    ] {
      XCTAssertFalse(Equality.same(child, other, in: childBytes), "\(other)")
    }
  }

  /// A box compares its value where it is with the value at hand, in the same bytes
  /// `Equality.same(_:_:in:)` compares, and holds nothing of another type.
  func testABoxHoldsTheSameBitsAsEqualityFindsInTheSignificantBytes() {
    let value = Padded(flag: true, count: 3, small: 9, name: "n")
    let bytes = SignificantBytes.of(Padded.self)
    let box: AnyValueBox = ValueBox(Self.copy(value, padding: 0x00), significant: bytes)
    XCTAssertTrue(box.holdsSameBits(as: Self.copy(value, padding: 0xA5)))
    var changed = value
    changed.small = 10
    XCTAssertFalse(box.holdsSameBits(as: changed))
    changed = value
    changed.counted.value = 1
    XCTAssertFalse(box.holdsSameBits(as: changed))
    changed = value
    changed.name = "m"
    XCTAssertFalse(box.holdsSameBits(as: changed))
    XCTAssertFalse(box.holdsSameBits(as: Dense()), "another type")
    // All the bytes when none is padding: the same as the whole comparison.
    let whole: AnyValueBox = ValueBox(Dense(a: 1, b: 2))
    XCTAssertTrue(whole.holdsSameBits(as: Dense(a: 1, b: 2)))
    XCTAssertFalse(whole.holdsSameBits(as: Dense(a: 1, b: 3)))
    // A sibling (the next step's box, made like this one) compares as a box made anew.
    let sibling = box.sibling(holding: changed, inner: nil)
    XCTAssertTrue(sibling.holdsSameBits(as: Self.copy(changed, padding: 0x5A)))
    XCTAssertFalse(sibling.holdsSameBits(as: value))
    for (one, other) in [(value, value), (value, changed), (changed, value)] {
      XCTAssertEqual(
        ValueBox(one, significant: bytes).holdsSameBits(as: other),
        Equality.same(one, other, in: bytes))
    }
  }

  /// A box the writer's types make through the class they keep for a type compares as a box
  /// made anew, in the type's significant bytes, keeps its inner box, and makes siblings,
  /// from a value or from where a value is, that compare the same way.
  func testABoxMadeThroughTheKeptClassComparesAsABoxMadeAnew() {
    let types = WalkedTypes()
    let value = Padded(flag: true, count: 3, small: 9, name: "n")
    var changed = value
    changed.small = 10
    let inner: AnyValueBox = ValueBox(7)
    for _ in 0..<2 {
      // The second time through the class kept the first time.
      let box = types.box(Self.copy(value, padding: 0x00), inner: inner)
      XCTAssertTrue(box.holds(Padded.self))
      XCTAssertFalse(box.holds(Dense.self))
      XCTAssertTrue(box.inner === inner)
      XCTAssertEqual(box.significant.ranges, SignificantBytes.of(Padded.self).ranges)
      XCTAssertEqual(box.unsafeValue(as: Padded.self).name, "n")
      XCTAssertTrue(box.holdsSameBits(as: Self.copy(value, padding: 0xA5)))
      XCTAssertFalse(box.holdsSameBits(as: changed))
      let sibling = withUnsafePointer(to: changed) {
        box.sibling(copying: UnsafeRawPointer($0), inner: nil)
      }
      XCTAssertTrue(sibling.holds(Padded.self))
      XCTAssertNil(sibling.inner)
      XCTAssertTrue(sibling.holdsSameBits(as: Self.copy(changed, padding: 0x5A)))
      XCTAssertFalse(sibling.holdsSameBits(as: value))
    }
    let dense = types.box(Dense(a: 1, b: 2), inner: nil)
    XCTAssertTrue(dense.holds(Dense.self))
    XCTAssertNil(dense.significant.ranges)
    XCTAssertTrue(dense.holdsSameBits(as: Dense(a: 1, b: 2)))
    XCTAssertFalse(dense.holdsSameBits(as: Dense(a: 1, b: 3)))
  }

  /// A presented child changed deep inside, step after step: the writer's box of the previous
  /// presentation shares its storage, so the change copies it and the presentation's bits
  /// differ; the child is then compared by its own bits, and the changed leaf alone written.
  func testAPresentedChildChangedDeepInsideInPlaceIsWrittenAgain() throws {
    var state = State()
    state.sheet = Child(maybe: Padded(small: 1))
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    for small in UInt8(2)...5 {
      state.sheet?.maybe?.small = small
      let result = try encoder.encode(state)
      XCTAssertEqual(result.changes.map(\.description), ["set sheet.maybe.small \(small)"])
      XCTAssertEqual(result.hash, result.value.stableHash)
    }
    let unchanged = try encoder.encode(state)
    XCTAssertEqual(unchanged.changes, [])
  }

  func testAnUnchangedStructWithOtherPaddingIsNotEncodedAgain() throws {
    var state = State()
    state.child.padded.name = "a"
    state.sheet = Child(maybe: Padded(small: 1))
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(Self.copy(state, padding: 0x00))
    Counted.encodings.store(0, ordering: .relaxed)

    let same = try encoder.encode(Self.copy(state, padding: 0xFF))
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed), 0)
    XCTAssertEqual(same.changes, [])

    state.sheet?.maybe?.small = 2
    state.sheet?.maybe?.counted.value = 5
    let changed = try encoder.encode(Self.copy(state, padding: 0x11))
    // The sheet's `maybe.counted` only: the other two `Padded`'s are kept.
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed), 1)
    XCTAssertEqual(
      changed.changes.map(\.description),
      ["set sheet.maybe.small 2", "set sheet.maybe.counted.value 5"])
  }

  func testEveryStepOfARandomWalkWithRandomPaddingIsExactlyTheWholeEncoders() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    var random = SplitMix64(seed: 23)
    for step in 1...1_500 {
      Self.mutate(&state, &random)
      let padding = UInt8(truncatingIfNeeded: random.next())
      let result = try encoder.encode(Self.copy(state, padding: padding))
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      assertEncodesAsWhole(result, whole, step: step)
      let diff = TraceDiff.changesAndPaths(from: previous, to: whole)
      XCTAssertEqual(result.changes, diff.changes, "step \(step)")
      XCTAssertEqual(result.paths, diff.paths, "step \(step)")
      previous = whole
    }
  }

  /// A copy of `value` made in memory filled with `padding`: a struct's copy writes its
  /// fields, not the bytes between them.
  private static func copy<T>(_ value: T, padding: UInt8) -> T {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { pointer.deallocate() }
    UnsafeMutableRawPointer(pointer).initializeMemory(
      as: UInt8.self, repeating: padding, count: MemoryLayout<T>.size)
    pointer.initialize(to: value)
    defer { pointer.deinitialize(count: 1) }
    return pointer.pointee
  }

  private static func mutate(_ state: inout State, _ random: inout SplitMix64) {
    let number = Int(random.next() % 6)
    let flag = random.next() % 2 == 0
    switch random.next() % 14 {
    case 0: state.child.on = flag
    case 1: state.child.padded.flag = flag
    case 2: state.child.padded.small = UInt8(number)
    case 3: state.child.padded.counted.value = number
    case 4: state.child.maybe = number == 0 ? nil : Padded(count: number)
    case 5: state.child.maybe?.flag = flag
    case 6: state.child.number = number == 0 ? nil : number
    case 7: state.sheet = number == 0 ? nil : Child(on: flag)
    case 8: state.sheet?.padded.name = "s\(number)"
    case 9: state.mode = number == 0 ? .idle : .busy(number, flag: flag)
    case 10: state.dense.b = number
    case 11: state.tail = flag
    case 12:
      if state.rows[id: number] == nil {
        state.rows.append(Row(id: number))
      } else {
        state.rows[id: number]?.done = flag
      }
    default: state.rows[id: number]?.padded.small = UInt8(number)
    }
  }
}

import ComposableCore
import Foundation
import Synchronization
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// `IncrementalEncoder` below the top level: nested structs are walked field by field, so an
/// unchanged part is not encoded again and a changed leaf gives its own path (an optional
/// child is walked as what it wraps: see `SingleValueFieldTests`), while what a walker cannot
/// keep (enums, UUIDs, dates, URLs, dictionaries, class instances) is encoded whole as
/// `TraceValueEncoder` encodes it.
final class NestedIncrementalEncoderTests: XCTestCase {
  /// Counts the calls of its `encode(to:)`: what the encoder encoded again.
  struct Counted: Codable, Equatable, Sendable {
    static let encodings = Atomic<Int>(0)
    var value = 0
    var label = "counted"

    func encode(to encoder: Encoder) throws {
      Self.encodings.add(1, ordering: .relaxed)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(value, forKey: .value)
      try container.encode(label, forKey: .label)
    }
  }

  final class Cache: Codable, @unchecked Sendable {
    var hits = 0
  }

  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done = false
    var counted = Counted()
  }

  enum Mode: Codable, Equatable, Sendable {
    case idle
    case loading(page: Int)
  }

  struct Leaf: Codable, Equatable, Sendable {
    var number = 0
    var text = "leaf"
    var counted = Counted()
  }

  struct Middle: Codable, Equatable, Sendable {
    var leaf = Leaf()
    var other = Leaf()
    var rows: IdentifiedArrayOf<Row> = []
    var mode = Mode.idle
    var child: Leaf?
    var when = Date(timeIntervalSinceReferenceDate: 0)
    var link = URL(string: "https://example.com/a")!
    var id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    var scores: [String: Int] = [:]
    var list: [Leaf] = []
  }

  /// A struct whose field holds a class instance: recorded as a placeholder, whole.
  struct Holder: Codable, Sendable, Equatable {
    var cache = Cache()
    var note = "holder"

    static func == (lhs: Holder, rhs: Holder) -> Bool { lhs.note == rhs.note }
  }

  struct State: Codable, Equatable, Sendable {
    var middle = Middle()
    var count = 0
    var holder = Holder()

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.middle == rhs.middle && lhs.count == rhs.count
    }
  }

  func testADeepLeafChangesOnlyItsPathAndItsSiblingsAreNotEncodedAgain() throws {
    var state = State()
    state.middle.rows = IdentifiedArray(
      uniqueElements: (0..<5).map { Row(id: $0, title: "row \($0)") })
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    Counted.encodings.store(0, ordering: .relaxed)

    state.middle.leaf.number = 7
    let result = try encoder.encode(state)

    // `middle.leaf.counted`, `middle.other.counted` and the rows' were not encoded again.
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed), 0)
    XCTAssertEqual(result.changes.map(\.description), ["set middle.leaf.number 7"])
    XCTAssertEqual(result.paths.map(\.description), ["middle.leaf.number"])
    XCTAssertEqual(result.hash, try expected(state).stableHash)

    state.middle.rows[id: 3]?.counted.value = 9
    let row = try encoder.encode(state)
    XCTAssertEqual(row.changes.map(\.description), ["set middle.rows[id: 3].counted.value 9"])
    XCTAssertEqual(row.hash, try expected(state).stableHash)
  }

  func testAnOptionalChildIsWalkedAndAnEnumIsEncodedWholeAndDiffed() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)

    state.middle.child = Leaf(number: 3)
    XCTAssertEqual(
      try encoder.encode(state).changes.map(\.description),
      [#"set middle.child (number: 3, text: "leaf", counted: (value: 0, label: "counted"))"#])
    state.middle.child?.number = 4
    XCTAssertEqual(
      try encoder.encode(state).changes.map(\.description), ["set middle.child.number 4"])
    state.middle.mode = .loading(page: 2)
    XCTAssertEqual(
      try encoder.encode(state).changes.map(\.description),
      ["set middle.mode .loading(page: 2)"])
  }

  func testAClassInstanceBelowTheTopLevelIsAPlaceholderAsTheEncoderWritesIt() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    let first = try encoder.encode(state)
    XCTAssertEqual(first.value, try expected(state))
    XCTAssertEqual(first.replaced.map(\.description), ["holder"])
    // The instance changes in place, and `Holder` is recorded as its placeholder: nothing
    // changes in the trace, as the whole encoder writes it.
    state.holder.cache.hits += 1
    state.holder.note = "changed"
    state.count = 1
    let second = try encoder.encode(state)
    XCTAssertEqual(second.value, try expected(state))
    XCTAssertEqual(second.changes.map(\.description), ["set count 1"])
    XCTAssertEqual(second.hash, try expected(state).stableHash)
  }

  struct Pair: Codable, Equatable, Sendable {
    var first = Leaf()
    var second = Leaf()
    var holder: Holder?
    var n = 0
  }

  /// Each level moves its changed fields' changes, paths and placeholders up to the level
  /// above (`FieldCache.takeEdits`): in field order, once, and not told again by a later step
  /// that keeps those fields.
  func testChangesAtSeveralLevelsInOneStepComeInFieldOrderOnceAndAreNotToldAgain() throws {
    var state = Pair()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)

    state.second.text = "c"
    state.first.number = 1
    state.second.counted.value = 2
    state.holder = Holder()
    state.n = 3
    let step = try encoder.encode(state)
    XCTAssertEqual(
      step.changes.map(\.description),
      [
        "set first.number 1", #"set second.text "c""#, "set second.counted.value 2",
        #"set holder "<not recorded: Holder holds class instances>""#, "set n 3",
      ])
    XCTAssertEqual(
      step.paths.map(\.description),
      ["first.number", "second.text", "second.counted.value", "holder", "n"])
    XCTAssertEqual(step.replaced.map(\.description), ["holder"])
    XCTAssertEqual(
      step.hash, try TraceValueEncoder().encodeReplacingClassInstances(state).value.stableHash)

    state.n = 4
    let next = try encoder.encode(state)
    XCTAssertEqual(next.changes.map(\.description), ["set n 4"])
    XCTAssertEqual(next.paths.map(\.description), ["n"])
    XCTAssertEqual(next.replaced.map(\.description), [])

    let same = try encoder.encode(state)
    XCTAssertEqual(same.changes.map(\.description), [])
    XCTAssertEqual(same.paths.map(\.description), [])

    // `holder` is its placeholder, which a change inside it does not change; encoded again, it
    // is listed again.
    state.holder?.note = "again"
    state.second.number = 5
    let last = try encoder.encode(state)
    XCTAssertEqual(last.changes.map(\.description), ["set second.number 5"])
    XCTAssertEqual(last.paths.map(\.description), ["second.number"])
    XCTAssertEqual(last.replaced.map(\.description), ["holder"])
    XCTAssertEqual(
      last.value, try TraceValueEncoder().encodeReplacingClassInstances(state).value)
  }

  /// Writes its note only when it has one: the keys of its level change.
  struct Sparse: Codable, Equatable, Sendable {
    var number = 0
    var note: String?
    var leaf = Leaf()

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(number, forKey: .number)
      if let note { try container.encode(note, forKey: .note) }
      try container.encode(leaf, forKey: .leaf)
    }
  }

  struct Outer: Codable, Equatable, Sendable {
    var inner = Sparse()
    var flag = false
  }

  struct Deep: Codable, Equatable, Sendable {
    var outer = Outer()
    var count = 0
  }

  func testAFieldKeepsItsPathFromStepToStepAcrossAChangeOfItsLevelsKeys() throws {
    var state = Deep()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    var steps: [(changes: [String], paths: [String])] = []
    func step(_ change: (inout Deep) -> Void) throws {
      change(&state)
      let result = try encoder.encode(state)
      XCTAssertEqual(
        result.hash, try TraceValueEncoder().encodeReplacingClassInstances(state).value.stableHash)
      steps.append((result.changes.map(\.description), result.paths.map(\.description)))
    }
    try step { $0.outer.inner.number = 1 }
    try step { $0.outer.inner.number = 2 }
    try step { $0.outer.inner.note = "n" }
    try step { $0.outer.inner.leaf.number = 5 }
    try step { $0.outer.inner.note = nil }
    try step {
      $0.outer.inner.number = 3
      $0.count = 1
    }
    try step { $0.outer.inner.leaf.text = "t" }
    try step { $0.outer.flag = true }
    XCTAssertEqual(steps.map(\.changes), [
      ["set outer.inner.number 1"],
      ["set outer.inner.number 2"],
      [#"set outer.inner (number: 2, note: "n", leaf: (number: 0, text: "leaf", counted: (value: 0, label: "counted")))"#],
      ["set outer.inner.leaf.number 5"],
      ["remove outer.inner.note"],
      ["set outer.inner.number 3", "set count 1"],
      [#"set outer.inner.leaf.text "t""#],
      ["set outer.flag true"],
    ])
    XCTAssertEqual(steps.map(\.paths), [
      ["outer.inner.number"],
      ["outer.inner.number"],
      ["outer.inner.note"],
      ["outer.inner.leaf.number"],
      ["outer.inner.note"],
      ["outer.inner.number", "count"],
      ["outer.inner.leaf.text"],
      ["outer.flag"],
    ])
  }

  /// Writes its two numbers in the order its flag says, and its note only when it has one.
  struct Swapping: Codable, Equatable, Sendable {
    var first = 0
    var second = 0
    var swapped = false
    var note: String?

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if swapped {
        try container.encode(second, forKey: .second)
        try container.encode(first, forKey: .first)
      } else {
        try container.encode(first, forKey: .first)
        try container.encode(second, forKey: .second)
      }
      try container.encode(swapped, forKey: .swapped)
      if let note { try container.encode(note, forKey: .note) }
    }
  }

  struct Swaps: Codable, Equatable, Sendable {
    var inner = Swapping()
    var count = 0
  }

  /// A level whose keys come in another order, or with one more or one fewer, is diffed whole
  /// against its previous encoding; with the same keys in the same order again, its changed
  /// leaves alone: at the top level and below it.
  func testALevelWhoseKeysMoveIsDiffedWholeAndItsLeavesAloneOnceTheyStay() throws {
    var top = Swapping()
    var nested = Swaps()
    var topEncoder = IncrementalEncoder()
    var nestedEncoder = IncrementalEncoder()
    var previousTop = try TraceValueEncoder().encodeReplacingClassInstances(top).value
    var previousNested = try TraceValueEncoder().encodeReplacingClassInstances(nested).value
    _ = try topEncoder.encode(top)
    _ = try nestedEncoder.encode(nested)
    // Each step encoded incrementally is the whole encoding, and its changes the whole diff.
    func encode<S: Encodable>(
      _ state: S, _ encoder: inout IncrementalEncoder, after previous: inout TraceValue,
      step: Int
    ) throws -> [String] {
      let result = try encoder.encode(state)
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      assertEncodesAsWhole(result, whole, step: step)
      XCTAssertEqual(
        result.changes, TraceDiff.changesAndPaths(from: previous, to: whole).changes,
        "step \(step)")
      previous = whole
      return result.changes.map(\.description)
    }
    var topChanges: [[String]] = []
    var nestedChanges: [[String]] = []
    let changes: [(inout Swapping) -> Void] = [
      { $0.first = 1 },
      { $0.swapped = true },
      { $0.second = 2 },
      { $0.note = "n" },
      { $0.note = nil },
      { $0.swapped = false },
      { $0.first = 3 },
    ]
    for (step, change) in changes.enumerated() {
      change(&top)
      change(&nested.inner)
      topChanges.append(try encode(top, &topEncoder, after: &previousTop, step: step))
      nestedChanges.append(try encode(nested, &nestedEncoder, after: &previousNested, step: step))
    }
    XCTAssertEqual(topChanges, [
      ["set first 1"],
      ["set . (second: 0, first: 1, swapped: true)"],
      ["set second 2"],
      [#"set note "n""#],
      ["remove note"],
      ["set . (first: 1, second: 2, swapped: false)"],
      ["set first 3"],
    ])
    XCTAssertEqual(nestedChanges, [
      ["set inner.first 1"],
      ["set inner (second: 0, first: 1, swapped: true)"],
      ["set inner.second 2"],
      [#"set inner.note "n""#],
      ["remove inner.note"],
      ["set inner (first: 1, second: 2, swapped: false)"],
      ["set inner.first 3"],
    ])
  }

  func testAStructChangedStepAfterStepIsWalkedAgainOnlyWhenItsBitsChanged() throws {
    var state = Deep()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    var steps: [(changes: [String], encodings: Int)] = []
    func step(_ change: (inout Deep) -> Void) throws {
      change(&state)
      Counted.encodings.store(0, ordering: .relaxed)
      let result = try encoder.encode(state)
      let encodings = Counted.encodings.load(ordering: .relaxed)
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      assertEncodesAsWhole(result, whole, step: steps.count)
      steps.append((result.changes.map(\.description), encodings))
    }
    try step { $0.outer.inner.number = 1 }
    try step { $0.outer.inner.number = 2 }
    try step { _ in }
    try step { $0.outer.inner.leaf.counted.value = 7 }
    try step { $0.outer.inner.leaf.counted.value = 7 }
    try step { $0.outer.inner.number = 1 }
    try step { $0.outer.flag = true }
    try step { $0.outer.inner.leaf.counted.value = 8 }
    XCTAssertEqual(steps.map(\.changes), [
      ["set outer.inner.number 1"],
      ["set outer.inner.number 2"],
      [],
      ["set outer.inner.leaf.counted.value 7"],
      [],
      ["set outer.inner.number 1"],
      ["set outer.flag true"],
      ["set outer.inner.leaf.counted.value 8"],
    ])
    // `Counted`'s `encode(to:)` runs only in the steps that changed it.
    XCTAssertEqual(steps.map(\.encodings), [0, 0, 0, 1, 0, 0, 0, 1])
  }

  func testEveryStepOfARandomWalkEncodesAndHashesLikeTheEncoderAndPatchesThePrevious()
    throws
  {
    var state = State()
    state.middle.rows = IdentifiedArray(
      uniqueElements: (0..<70).map { Row(id: $0, title: "row \($0)") })
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    var random = SplitMix64(seed: 23)
    for step in 1...800 {
      mutate(&state, &random)
      let result = try encoder.encode(state)
      let whole = try expected(state)
      assertEncodesAsWhole(result, whole, step: step)
      var patched = previous
      try TraceDiff.apply(result.changes, to: &patched)
      XCTAssertEqual(patched, whole, "step \(step)")
      XCTAssertEqual(
        Set(result.paths.map(\.description)),
        Set(TraceDiff.changesAndPaths(from: previous, to: whole).paths.map(\.description)),
        "step \(step)")
      previous = whole
    }
  }

  private func expected(_ state: State) throws -> TraceValue {
    try TraceValueEncoder().encodeReplacingClassInstances(state).value
  }

  private func mutate(_ state: inout State, _ random: inout SplitMix64) {
    let pick = Int(random.next() % 14)
    let number = Int(random.next() % 50)
    switch pick {
    case 0: state.middle.leaf.number = number
    case 1: state.middle.other.counted.value = number
    case 2: state.middle.rows[id: number % 70]?.done.toggle()
    case 3: state.middle.rows[id: number % 70]?.counted.label = "l\(number)"
    case 4: state.middle.mode = number % 2 == 0 ? .idle : .loading(page: number)
    case 5: state.middle.child = number % 3 == 0 ? nil : Leaf(number: number)
    case 6: state.middle.child?.counted.value = number
    case 7: state.middle.when = Date(timeIntervalSinceReferenceDate: Double(number) + 0.25)
    case 8: state.middle.link = URL(string: "https://example.com/\(number)")!
    case 9: state.middle.scores["k\(number % 5)"] = number
    case 10: state.middle.list.append(Leaf(number: number))
    case 11: state.count += 1
    case 12: state.holder.note = "n\(number)"
    default:
      // Same elements, another order.
      state.middle.rows = IdentifiedArray(uniqueElements: state.middle.rows.elements.reversed())
    }
  }
}

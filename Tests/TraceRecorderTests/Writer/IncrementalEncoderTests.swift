import ComposableCore
import TraceKit
import XCTest

@testable import TraceRecorder

final class IncrementalEncoderTests: XCTestCase {
  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Codable, Equatable, Sendable {
    var count = 0
    var name = "start"
    var items: IdentifiedArrayOf<Item> = []
    var detail: Item?
    var secret = "hunter2"
    var tags: [String] = []
  }

  /// A fixed pseudo-random walk of mutations: every kind of change an identified array and an
  /// optional field can go through.
  private func mutate(_ state: inout State, _ random: inout SplitMix64) {
    let choice = Int(random.next() % 9)
    let id = Int(random.next() % 40)
    switch choice {
    case 0: state.count += 1
    case 1: state.items.append(Item(id: 1_000 + state.count + state.items.count, title: "new"))
    case 2: if !state.items.isEmpty { state.items.remove(id: state.items.ids[0]) }
    case 3: if let first = state.items.ids.first { state.items[id: first]?.done.toggle() }
    case 4:
      if !state.items.isEmpty {
        let index = Int(random.next() % UInt64(state.items.count))
        state.items[id: state.items.ids[index]]?.title = "t\(random.next() % 1_000)"
      }
    case 5: state.detail = state.detail == nil ? Item(id: id, title: "detail") : nil
    case 6: state.secret = "s\(random.next() % 100)"
    case 7: state.tags.append("tag\(id)")
    default:
      // A reorder: same elements, new order.
      let items = state.items.elements.reversed()
      state.items = IdentifiedArray(uniqueElements: items)
    }
  }

  func testEveryStepEncodesLikeTheEncoderAndItsChangesPatchThePreviousValue() throws {
    try walk(initialCount: 30, steps: 600, seed: 11)
  }

  func testAWalkOverSeveralChunksEncodesAndHashesLikeTheWholeState() throws {
    // 150 elements: three chunks of the array and three hash runs, the last one partial.
    try walk(initialCount: 150, steps: 400, seed: 12)
  }

  func testStateHashFromCachedPiecesEqualsTheWholeTreesHash() throws {
    var state = State()
    state.items = IdentifiedArray(
      uniqueElements: (0..<200).map { Item(id: $0, title: "item \($0)") })
    var encoder = IncrementalEncoder()
    let first = try encoder.encode(state)
    XCTAssertEqual(first.hash, try TraceValueEncoder().encode(state).stableHash)
    state.items[id: 130]?.done = true
    let second = try encoder.encode(state)
    XCTAssertEqual(second.hash, try TraceValueEncoder().encode(state).stableHash)
    XCTAssertNotEqual(second.hash, first.hash)
    XCTAssertEqual(second.changes.map(\.description), ["set items[id: 130].done true"])
    state.items[id: 130]?.done = false
    XCTAssertEqual(try encoder.encode(state).hash, first.hash)
  }

  private func walk(initialCount: Int, steps: Int, seed: UInt64) throws {
    var state = State()
    state.items = IdentifiedArray(
      uniqueElements: (0..<initialCount).map { Item(id: $0, title: "item \($0)") })
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    var random = SplitMix64(seed: seed)
    for step in 1...steps {
      mutate(&state, &random)
      let result = try encoder.encode(state)
      let expected = try TraceValueEncoder().encode(state)
      XCTAssertEqual(result.value, expected, "step \(step)")
      XCTAssertEqual(result.hash, expected.stableHash, "step \(step)")
      var json: [UInt8] = []
      expected.writeJSON(into: &json)
      XCTAssertEqual(result.json, json, "step \(step): the keyframe JSON from cached parts")
      var patched = previous
      try TraceDiff.apply(result.changes, to: &patched)
      XCTAssertEqual(patched, result.value, "step \(step)")
      previous = result.value
    }
  }

  func testResultsTheCallerKeepsStayAsEncodedWhileLaterStepsAreEncoded() throws {
    // The encoder empties the storage of the fields two steps back for the next walk: a result
    // still held elsewhere keeps its own.
    var state = State()
    state.items = IdentifiedArray(
      uniqueElements: (0..<70).map { Item(id: $0, title: "item \($0)") })
    var encoder = IncrementalEncoder()
    var kept = [(try encoder.encode(state), try TraceValueEncoder().encode(state))]
    var random = SplitMix64(seed: 13)
    for _ in 1...60 {
      mutate(&state, &random)
      kept.append((try encoder.encode(state), try TraceValueEncoder().encode(state)))
    }
    for (step, (result, expected)) in kept.enumerated() {
      XCTAssertEqual(result.value, expected, "step \(step)")
      XCTAssertEqual(result.hash, expected.stableHash, "step \(step)")
    }
  }

  func testOneChangedElementOfAnIdentifiedArrayIsOneChangeByID() throws {
    var state = State()
    state.items = IdentifiedArray(
      uniqueElements: (0..<1_000).map { Item(id: $0, title: "item \($0)") })
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    state.items[id: 517]?.title = "changed"
    let result = try encoder.encode(state)
    XCTAssertEqual(
      result.changes.map(\.description), [#"set items[id: 517].title "changed""#])
  }

  func testRedactedChangesCarryOnlyMarkers() throws {
    let redaction = try Redaction(
      validating: ["secret", "detail.title"], setting: "redactedStatePaths")
    var state = State()
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    redaction.apply(to: &previous)
    var random = SplitMix64(seed: 5)
    for step in 1...300 {
      mutate(&state, &random)
      let result = try encoder.encode(state)
      var value = result.value
      redaction.apply(to: &value)
      let changes = redaction.apply(to: result.changes, newState: value)
      var patched = previous
      try TraceDiff.apply(changes, to: &patched)
      XCTAssertEqual(patched, value, "step \(step)")
      let text = changes.map(\.description).joined(separator: "\n")
      XCTAssertFalse(text.contains(#""\#(state.secret)""#), "step \(step): \(text)")
      previous = value
    }
  }

  /// A state whose `encode(to:)` writes a nested container on some steps: the walker gives up
  /// there after the identified array staged its changed element, and the step is encoded
  /// whole and diffed against the previous step's encoding, which staging left as it was.
  struct Shifting: Encodable {
    var items: IdentifiedArrayOf<Item>
    var nested = false

    enum CodingKeys: String, CodingKey { case items, nested, flag }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(items, forKey: .items)
      if nested {
        var inner = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
        try inner.encode(true, forKey: .flag)
      } else {
        try container.encode(false, forKey: .nested)
      }
    }
  }

  func testAStepTheWalkerGivesUpOnAfterAStagedElementIsDiffedAgainstTheIntactPreviousStep()
    throws
  {
    var state = Shifting(
      items: IdentifiedArray(uniqueElements: (0..<100).map { Item(id: $0, title: "i\($0)") }))
    var encoder = IncrementalEncoder()
    var previous = try TraceValueEncoder().encode(state)
    _ = try encoder.encode(state)
    var expected: [[String]] = []
    var got: [[String]] = []
    for (step, id) in [5, 7, 9, 70, 71].enumerated() {
      state.items[id: id]?.done.toggle()
      state.nested = step == 1 || step == 3
      let result = try encoder.encode(state)
      let value = try TraceValueEncoder().encode(state)
      let diff = TraceDiff.changesAndPaths(from: previous, to: value)
      XCTAssertEqual(result.value, value, "step \(step)")
      XCTAssertEqual(result.hash, value.stableHash, "step \(step)")
      XCTAssertEqual(result.paths, diff.paths, "step \(step)")
      expected.append(diff.changes.map(\.description))
      got.append(result.changes.map(\.description))
      previous = value
    }
    XCTAssertEqual(got, expected)
    XCTAssertEqual(
      got.first, ["set items[id: 5].done true"], "a walked step is one change by id")
  }
}

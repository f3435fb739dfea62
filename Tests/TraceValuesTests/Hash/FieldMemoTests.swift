import TestSupport
import XCTest

@testable import TraceValues

final class FieldMemoTests: XCTestCase {
  /// A memo hashing one state after another, as a replay does, gives each state's own hash:
  /// whatever changed from the state before (a number, a string, a key, a container, the
  /// fields themselves) and whatever the value is.
  func testEachStateHashesAsItsOwnStableHash() {
    let long = String(repeating: "long key ", count: 3)
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    var state = TraceValue.object([
      TraceField("count", .int(0)), TraceField("isLoading", .bool(false)),
      TraceField("message", .string("")), TraceField("lastLoadedAt", .null),
    ])
    var states: [TraceValue] = [state]
    for count in 1...5 {
      state = setting("count", to: .int(Int64(count)), in: state)
      states.append(state)
    }
    states += [
      setting("message", to: .string("a message longer than sixteen bytes"), in: state),
      setting("message", to: .string("short"), in: state),
      setting("isLoading", to: .bool(true), in: state),
      setting("lastLoadedAt", to: .double(-0.0), in: state),
      setting("lastLoadedAt", to: .double(0.0), in: state),
      setting("lastLoadedAt", to: .uint(.max), in: state),
      setting("lastLoadedAt", to: .bytes([1, 2, 3]), in: state),
      setting("lastLoadedAt", to: .array([.int(1)]), in: state),
      setting("lastLoadedAt", to: .array([.int(1), .int(2)]), in: state),
      setting("lastLoadedAt", to: .object([TraceField("a", .int(1))]), in: state),
      setting("lastLoadedAt", to: .enumCase("loaded", []), in: state),
      .object([TraceField(composed, .int(1))]),
      .object([TraceField(decomposed, .int(1))]),
      .object([TraceField(long, .int(1)), TraceField("n", .string(long))]),
      .object([TraceField(long, .int(2)), TraceField("n", .string(long + "!"))]),
      .object([]),
      .object([]),
      .array([.int(1)]),
      .int(3),
      state,
      .object([TraceField("count", .string("0"))]),
    ]
    let memo = MerkleHash.FieldMemo()
    for (index, state) in states.enumerated() {
      XCTAssertEqual(memo.hash(state), state.stableHash, "state \(index): \(state)")
    }
  }

  /// An object without fields (a feature whose state has none), as the first value a memo
  /// hashes, hashes as its stable hash.
  func testAnObjectWithoutFieldsFirstHashesAsItsOwnStableHash() {
    let memo = MerkleHash.FieldMemo()
    XCTAssertEqual(memo.hash(.object([])), TraceValue.object([]).stableHash)
    XCTAssertEqual(memo.hash(.object([])), TraceValue.object([]).stableHash)
  }

  /// A wide object (words over many stripes of the hash, each lane kept from step to step)
  /// whose fields change one, two or three at a time, at every place, sometimes to words of
  /// another length or kind: each state hashes as its own stable hash.
  func testAWideObjectChangedAnywhereHashesAsItsOwnStableHash() {
    var random = SplitMix(seed: 5)
    var fields = (0..<13).map { TraceField("field\($0)", .int(Int64($0))) }
    let memo = MerkleHash.FieldMemo()
    for step in 0..<3_000 {
      for _ in 0...Int(random.next() % 3) {
        let index = Int(random.next() % UInt64(fields.count))
        fields[index].value =
          switch random.next() % 10 {
          case 0: .string(String(repeating: "x", count: Int(random.next() % 20)))
          case 1: .bool(random.next() % 2 == 0)
          case 2: .array([.int(Int64(random.next() % 4))])
          case 3: .double(Double(random.next() % 7))
          default: .int(Int64(random.next() % 1_000))
          }
      }
      let state = TraceValue.object(fields)
      XCTAssertEqual(memo.hash(state), state.stableHash, "step \(step): \(state)")
    }
  }

  private func setting(_ key: String, to value: TraceValue, in state: TraceValue) -> TraceValue {
    guard case .object(var fields) = state else { return state }
    for index in fields.indices where fields[index].key == key { fields[index].value = value }
    return .object(fields)
  }
}

import TestSupport
import XCTest

@testable import TraceValues

/// Identified arrays of up to `Differ.smallArray` elements match their ids by comparing them
/// instead of hashing them. Both ways must give the same answer, so the diff of a small array
/// is exactly the diff the hashed path gives.
final class SmallIdentifiedArrayDiffTests: XCTestCase {
  /// Ids that are equal, or not, only by `TraceValue`'s exact rules: doubles by bits (`nan`
  /// equals itself, `0.0` is not `-0.0`), strings by bytes ("é" is not "e" + U+0301, which
  /// Swift's `==` and `hash` treat as one), an int and a uint of the same number differ.
  private let idPool: [TraceValue] = [
    .string("a"), .string("b"), .string("\u{E9}"), .string("e\u{301}"), .int(1), .uint(1),
    .double(0.0), .double(-0.0), .double(.nan), .null, .bool(true),
    .object([TraceField("k", .int(1))]), .array([.int(1)]), .int(2), .int(3), .string("c"),
    // The same length and last eight bytes: the same summary, not the same id.
    .string("first-12345678"), .string("other-12345678"),
  ]

  private func element(_ id: TraceValue, _ value: Int) -> TraceValue {
    .object([TraceField("id", id), TraceField("value", .int(Int64(value)))])
  }

  func testIdsAreToldApartAndMatchedAlikeByComparingAndByHashing() {
    var random = SplitMix(seed: 41)
    var distinct = 0
    for round in 0..<4_000 {
      let count = Int(random.next() % 20)
      var elements: [TraceValue] = []
      for _ in 0..<count {
        switch random.next() % 20 {
        case 0: elements.append(.int(7))  // not an object
        case 1: elements.append(.object([TraceField("name", .int(1))]))  // no id
        default:
          let id = idPool[Int(random.next() % UInt64(idPool.count))]
          elements.append(element(id, Int(random.next() % 3)))
        }
      }
      let compared = Differ.distinctIDs(elements, hashingAbove: .max)
      let hashed = Differ.distinctIDs(elements, hashingAbove: -1)
      XCTAssertEqual(compared, hashed, "round \(round)")
      guard let oldIDs = compared else { continue }
      distinct += 1
      // Another arrangement of some of the same ids and some others.
      var newIDs = oldIDs.filter { _ in random.next() % 4 != 0 }
      newIDs.shuffle(using: &random)
      for id in idPool where !newIDs.contains(id) && random.next() % 5 == 0 {
        newIDs.insert(id, at: Int(random.next() % UInt64(newIDs.count + 1)))
      }
      XCTAssertEqual(
        Differ.stayingElements(
          oldIDs: oldIDs, newIDs: newIDs, newCount: newIDs.count, hashingAbove: .max),
        Differ.stayingElements(
          oldIDs: oldIDs, newIDs: newIDs, newCount: newIDs.count, hashingAbove: -1),
        "round \(round)")
    }
    // The seeded walk reached both answers many times.
    XCTAssertEqual(distinct, 936)
  }

  func testASummaryIsSharedByEqualIdsAndTellsMostOthersApart() {
    XCTAssertEqual(
      Differ.summary(of: .string("first-12345678")), Differ.summary(of: .string("other-12345678")))
    XCTAssertNotEqual(
      Differ.summary(of: .string("row-12345678")), Differ.summary(of: .string("row-12345679")))
    XCTAssertNotEqual(Differ.summary(of: .string("ab")), Differ.summary(of: .string("b")))
    XCTAssertEqual(Differ.summary(of: .double(.nan)), Differ.summary(of: .double(.nan)))
    XCTAssertNotEqual(Differ.summary(of: .double(0.0)), Differ.summary(of: .double(-0.0)))
    XCTAssertEqual(Differ.summary(of: .object([])), 0)
  }

  func testTheExactIdRulesHoldWithoutHashing() {
    let ids: [TraceValue] = [
      .double(0.0), .double(-0.0), .string("\u{E9}"), .string("e\u{301}"), .int(1), .uint(1),
    ]
    XCTAssertEqual(
      Differ.distinctIDs(ids.enumerated().map { element($1, $0) }, hashingAbove: .max), ids)
    XCTAssertNil(
      Differ.distinctIDs(
        [element(.double(.nan), 0), element(.double(.nan), 1)], hashingAbove: .max))
    XCTAssertEqual(
      Differ.stayingElements(
        oldIDs: [.double(0.0), .string("\u{E9}"), .int(1)],
        newIDs: [.double(-0.0), .string("e\u{301}"), .string("\u{E9}"), .int(1)], newCount: 4,
        hashingAbove: .max),
      [-1, -1, 1, 2])
  }

  /// Groups of rows, each group with its own rows: moves, inserts, removes and edits at both
  /// levels, each step diffed by comparing ids and by hashing them.
  func testEveryStepOfARandomWalkOfNestedIdentifiedArraysIsTheHashedDiff() throws {
    var random = SplitMix(seed: 5)
    var groups: [(id: Int, rows: [(id: Int, done: Bool)])] = (0..<4).map { group in
      (group, (0..<5).map { (group * 100 + $0, false) })
    }
    var nextID = 1_000
    var old = tree(groups, note: 0)
    for step in 1...1_500 {
      let group = Int(random.next() % UInt64(groups.count))
      let rows = groups[group].rows.count
      switch random.next() % 8 {
      case 0 where rows > 1:
        let row = groups[group].rows.remove(at: Int(random.next() % UInt64(rows)))
        groups[group].rows.insert(row, at: Int(random.next() % UInt64(rows)))
      case 1 where rows < 14:
        nextID += 1
        groups[group].rows.insert(
          (nextID, false), at: Int(random.next() % UInt64(rows + 1)))
      case 2 where rows > 0:
        groups[group].rows.remove(at: Int(random.next() % UInt64(rows)))
      case 3 where groups.count > 1:
        let moved = groups.remove(at: group)
        groups.insert(moved, at: Int(random.next() % UInt64(groups.count + 1)))
      case 4 where groups.count < 6:
        nextID += 1
        groups.insert((nextID, [(nextID * 10, true)]), at: Int(random.next() % 3))
      case 5 where groups.count > 2:
        groups.remove(at: group)
      default:
        if rows > 0 {
          let row = Int(random.next() % UInt64(rows))
          groups[group].rows[row].done.toggle()
        }
      }
      let new = tree(groups, note: step % 3)
      let compared = TraceDiff.changesAndPaths(from: old, to: new)
      let hashed = TraceDiff.changesAndPaths(from: old, to: new, hashingAbove: -1)
      XCTAssertEqual(compared.changes, hashed.changes, "step \(step)")
      XCTAssertEqual(compared.paths, hashed.paths, "step \(step)")
      var patched = old
      try TraceDiff.apply(compared.changes, to: &patched)
      XCTAssertEqual(patched, new, "step \(step)")
      old = new
    }
  }

  private func tree(_ groups: [(id: Int, rows: [(id: Int, done: Bool)])], note: Int)
    -> TraceValue
  {
    .object([
      TraceField("note", .int(Int64(note))),
      TraceField(
        "groups",
        .array(
          groups.map { group in
            .object([
              TraceField("id", .string("g\(group.id)")),
              TraceField(
                "rows",
                .array(
                  group.rows.map { row in
                    .object([
                      TraceField("id", .int(Int64(row.id))), TraceField("done", .bool(row.done)),
                    ])
                  })),
            ])
          })),
    ])
  }
}

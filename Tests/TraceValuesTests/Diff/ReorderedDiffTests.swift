import TestSupport
import XCTest

@testable import TraceValues

/// `TraceDiff.reordered` diffs an array whose elements only moved from where each went: it
/// must give exactly the changes and paths of the whole diff, or nil where the whole diff
/// would not match the elements by id.
final class ReorderedDiffTests: XCTestCase {
  private func row(_ id: TraceValue, _ title: String) -> TraceValue {
    .object([TraceField("id", id), TraceField("title", .string(title))])
  }

  /// The whole diff of the field `rows`, as the writer takes it.
  private func whole(_ old: [TraceValue], _ new: [TraceValue], hashingAbove: Int)
    -> (changes: [TraceChange], paths: [TracePath])
  {
    TraceDiff.changesAndPaths(
      from: .object([TraceField("rows", .array(old))]),
      to: .object([TraceField("rows", .array(new))]), hashingAbove: hashingAbove)
  }

  func testAMoveIsTheWholeDiffsRemoveAndInsert() throws {
    let rows = [row(.int(1), "a"), row(.int(2), "b"), row(.int(3), "c"), row(.int(4), "d")]
    // The first row moved to the third place.
    let diff = try XCTUnwrap(
      TraceDiff.reordered(rows, sources: [1, 2, 0, 3], prefix: [.key("rows")]))
    XCTAssertEqual(
      diff.changes.map(\.description),
      ["remove rows[id: 1]", #"insert rows[2] (id: 1, title: "a")"#])
    XCTAssertEqual(diff.paths.map(\.description), ["rows[id: 1]", "rows[id: 1]"])
    // Reversed: the longest run that kept its order is one element (the first, `4`).
    let reversed = try XCTUnwrap(
      TraceDiff.reordered(rows, sources: [3, 2, 1, 0], prefix: [.key("rows")]))
    XCTAssertEqual(
      reversed.changes.map(\.description),
      [
        "remove rows[id: 1]", "remove rows[id: 2]", "remove rows[id: 3]",
        #"insert rows[1] (id: 3, title: "c")"#, #"insert rows[2] (id: 2, title: "b")"#,
        #"insert rows[3] (id: 1, title: "a")"#,
      ])
    XCTAssertEqual(
      TraceDiff.reordered(rows, sources: [0, 1, 2, 3], prefix: [.key("rows")])?.changes, [])
  }

  func testNilWhereTheWholeDiffWouldNotMatchByIdOrTheSourcesAreNoReordering() {
    let rows = [row(.int(1), "a"), row(.int(2), "b")]
    let twins = [row(.int(1), "a"), row(.int(1), "b")]
    let plain: [TraceValue] = [.int(1), .int(2)]
    let noID: [TraceValue] = [.object([TraceField("name", .int(1))]), row(.int(2), "b")]
    XCTAssertNil(TraceDiff.reordered(twins, sources: [1, 0], prefix: [.key("rows")]))
    XCTAssertNil(TraceDiff.reordered(plain, sources: [1, 0], prefix: [.key("rows")]))
    XCTAssertNil(TraceDiff.reordered(noID, sources: [1, 0], prefix: [.key("rows")]))
    XCTAssertNil(TraceDiff.reordered(rows, sources: [0, 0], prefix: [.key("rows")]))
    XCTAssertNil(TraceDiff.reordered(rows, sources: [0], prefix: [.key("rows")]))
    XCTAssertNil(TraceDiff.reordered(rows, sources: [0, 2], prefix: [.key("rows")]))
  }

  /// Random reorderings of arrays of 0 to 40 elements (either side of `Differ.smallArray`),
  /// some with equal ids, elements without an id or that are not objects: wherever
  /// `reordered` answers, it is the whole diff, compared and hashed; it answers wherever all
  /// elements have distinct ids.
  func testEveryRandomReorderingIsTheWholeDiff() {
    var random = SplitMix(seed: 73)
    var answered = 0
    for round in 0..<3_000 {
      let count = Int(random.next() % 41)
      var old: [TraceValue] = []
      for index in 0..<count {
        switch random.next() % 40 {
        case 0: old.append(.int(Int64(index)))
        case 1: old.append(.object([TraceField("name", .int(1))]))
        case 2: old.append(row(.int(0), "twin"))
        case 3: old.append(row(.string("\(index)"), "text id"))
        default: old.append(row(.int(Int64(index + 1)), "r\(random.next() % 3)"))
        }
      }
      var sources = Array(0..<count)
      switch random.next() % 4 {
      case 0: sources.shuffle(using: &random)
      case 1:
        // One element moved, as `move(fromOffsets:toOffset:)` does.
        if count > 1 {
          let from = Int(random.next() % UInt64(count))
          let moved = sources.remove(at: from)
          sources.insert(moved, at: Int(random.next() % UInt64(count)))
        }
      case 2: sources.reverse()
      default: break
      }
      let new = sources.map { old[$0] }
      let distinct = Differ.distinctIDs(old, hashingAbove: -1) != nil
      guard let diff = TraceDiff.reordered(old, sources: sources, prefix: [.key("rows")])
      else {
        XCTAssertFalse(distinct && count > 0, "round \(round): no answer")
        continue
      }
      answered += 1
      for hashingAbove in [-1, Differ.smallArray] {
        let expected = whole(old, new, hashingAbove: hashingAbove)
        XCTAssertEqual(diff.changes, expected.changes, "round \(round)")
        XCTAssertEqual(diff.paths, expected.paths, "round \(round)")
      }
      var patched = TraceValue.object([TraceField("rows", .array(old))])
      XCTAssertNoThrow(try TraceDiff.apply(diff.changes, to: &patched), "round \(round)")
      XCTAssertEqual(patched, .object([TraceField("rows", .array(new))]), "round \(round)")
    }
    XCTAssertGreaterThan(answered, 1_000)
  }
}

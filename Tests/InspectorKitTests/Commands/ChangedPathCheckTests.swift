import TestSupport
import XCTest

@testable import InspectorKit
@testable import TraceKit
@testable import TraceValues

/// `ChangedPathCheck` names a step's changed paths from its changes as the writer names them
/// from the diff: over seeded pairs of states of every shape the diff treats apart (objects
/// whose keys move or repeat, identified and plain arrays, enum cases, `.reflected` markers),
/// the texts it finds are `changedPathTexts` of the diff's own paths, and any other set is
/// refused.
final class ChangedPathCheckTests: XCTestCase {
  static let keys = ["a", "b", "c", "id", "title"]

  func leaf(_ random: inout SplitMix) -> TraceValue {
    switch random.next() % 4 {
    case 0: .int(Int64(random.next() % 3))
    case 1: .string("s\(random.next() % 2)")
    case 2: .bool(random.next() % 2 == 0)
    default: .null
    }
  }

  func value(_ random: inout SplitMix, depth: Int) -> TraceValue {
    guard depth > 0 else { return leaf(&random) }
    switch random.next() % 8 {
    case 0, 1:
      // Keys drawn with repeats and in any order: fields move, appear in the middle, repeat.
      let count = Int(random.next() % 4)
      return .object(
        (0..<count).map { _ in
          TraceField(
            Self.keys[Int(random.next() % UInt64(Self.keys.count))],
            value(&random, depth: depth - 1))
        })
    case 2:
      // Identified elements (ids 0…4, sometimes repeated), in any order.
      let count = Int(random.next() % 5)
      return .array(
        (0..<count).map { _ in
          .object([
            TraceField("id", .int(Int64(random.next() % 5))),
            TraceField("title", value(&random, depth: depth - 1)),
          ])
        })
    case 3:
      return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth - 1) })
    case 4:
      let name = random.next() % 2 == 0 ? "loaded" : "failed"
      if random.next() % 2 == 0 {
        return .enumCase(name, [TraceField("_0", value(&random, depth: depth - 1))])
      }
      return .enumCase(
        name,
        [TraceField("x", value(&random, depth: depth - 1)), TraceField("y", leaf(&random))])
    case 5:
      let type = random.next() % 3 == 0 ? "Other" : "Box"
      return .reflected(typeName: type, value(&random, depth: depth - 1))
    default:
      return leaf(&random)
    }
  }

  /// A state and the next one: often the same shape with a few parts redrawn.
  func pair(_ random: inout SplitMix) -> (TraceValue, TraceValue) {
    let old = value(&random, depth: 4)
    var new = old
    for _ in 0..<(1 + random.next() % 3) {
      new = redraw(new, &random, depth: 4)
    }
    return (old, new)
  }

  func redraw(_ value: TraceValue, _ random: inout SplitMix, depth: Int) -> TraceValue {
    if random.next() % 4 == 0 { return self.value(&random, depth: depth) }
    switch value {
    case .object(var fields) where !fields.isEmpty:
      let index = Int(random.next() % UInt64(fields.count))
      fields[index].value = redraw(fields[index].value, &random, depth: depth - 1)
      if random.next() % 5 == 0 { fields.swapAt(0, index) }
      return .object(fields)
    case .array(var elements) where !elements.isEmpty:
      let index = Int(random.next() % UInt64(elements.count))
      switch random.next() % 4 {
      case 0: elements.remove(at: index)
      case 1: elements.insert(elements[index], at: 0)
      case 2: elements.swapAt(0, index)
      default: elements[index] = redraw(elements[index], &random, depth: depth - 1)
      }
      return .array(elements)
    case .enumCase(let name, var fields) where !fields.isEmpty:
      fields[0].value = redraw(fields[0].value, &random, depth: depth - 1)
      return .enumCase(name, fields)
    case .reflected(let type, let inner):
      return .reflected(typeName: type, redraw(inner, &random, depth: depth - 1))
    default:
      return self.value(&random, depth: depth)
    }
  }

  func testTheChangesNameWhatTheDiffNamesOverEveryShape() {
    var random = SplitMix(seed: 28)
    var kinds: Set<String> = []
    for _ in 0..<20_000 {
      let drawn = pair(&random)
      var old = drawn.0
      let new = drawn.1
      for hashingAbove in [-1, Differ.smallArray] {
        let (changes, paths) = TraceDiff.changesAndPaths(
          from: old, to: new, hashingAbove: hashingAbove)
        let written = TracePath.changedPathTexts(paths)
        let named = ChangedPathCheck.texts(of: changes, before: old, choosingFrom: written)
        XCTAssertEqual(named, written, "\(old) → \(new): \(changes)")
        var check = ChangedPathCheck()
        XCTAssertNil(check.mismatch(changes, set: 1, texts: written, before: &old))
        if !written.isEmpty {
          XCTAssertNotNil(
            check.mismatch(changes, set: 2, texts: Array(written.dropLast()), before: &old))
          XCTAssertNotNil(check.mismatch(changes, set: 3, texts: written + ["zz"], before: &old))
        }
        for change in changes {
          let alone = ChangedPathCheck.texts(of: [change], before: old, choosingFrom: written)
          switch change {
          case _ where alone == [change.path.description]: kinds.insert("own path")
          case .insert: kinds.insert("insert by id")
          case .set: kinds.insert("whole set")
          case .remove: kinds.insert("remove elsewhere")
          }
        }
      }
    }
    // Every way a change can name its paths came up.
    XCTAssertEqual(kinds, ["insert by id", "whole set", "own path"])
  }

  /// The set a step was last checked with is remembered with its paths: the next step with
  /// the same id and paths passes without naming them again, and one with other paths, or
  /// another id, is checked again.
  func testARememberedSetIsCheckedAgainWhenThePathsOrTheIdDiffer() {
    let count = TracePath([.key("count")])
    let title = TracePath([.key("title")])
    var state: TraceValue = .object([
      TraceField("count", .int(0)), TraceField("title", .string("a")),
    ])
    var check = ChangedPathCheck()
    XCTAssertNil(check.mismatch([.set(count, .int(1))], set: 7, texts: ["count"], before: &state))
    XCTAssertNil(check.mismatch([.set(count, .int(2))], set: 7, texts: ["count"], before: &state))
    XCTAssertEqual(
      check.mismatch([.set(title, .string("b"))], set: 7, texts: ["count"], before: &state),
      ["title"])
    XCTAssertEqual(
      check.mismatch([.set(count, .int(3))], set: 8, texts: ["title"], before: &state), ["count"])
    XCTAssertEqual(check.mismatch([], set: 7, texts: ["count"], before: &state), [])
    XCTAssertNil(check.mismatch([], set: 0, texts: [], before: &state))
  }

  /// Lines of one change read as the path cache's kept head are known by the head's number:
  /// the same set and head pass, another head or another set is checked again, and a line of
  /// one change that is not a kept `set` is never taken for one.
  func testALineReadAsTheKeptHeadIsCheckedOncePerSetAndHead() throws {
    var state: TraceValue = .object([
      TraceField("count", .int(0)), TraceField("title", .string("a")),
    ])
    let paths = TraceReader.PathCache()
    var check = ChangedPathCheck()
    func read(_ changes: String) throws -> [TraceChange] {
      let line = #"{"step":1,"action":null,"changes":"# + changes + "}"
      return try Array(line.utf8).withUnsafeBytes { bytes in
        try StepLine.changes(parsing: bytes, paths: paths.cache)
      }
    }
    func mismatch(_ changes: String, set: Int64, _ texts: [String]) throws -> [String]? {
      check.mismatch(
        try read(changes), set: set, texts: texts, before: &state, keptHead: paths.keptSetHead)
    }
    let count = #"[{"op":"set","path":"count","value":1}]"#
    let title = #"[{"op":"set","path":"title","value":"b"}]"#
    // A set id names one list of texts in a file; "zzz" under a known id shows whether the
    // texts were looked at.
    XCTAssertNil(try mismatch(count, set: 7, ["count"]))
    XCTAssertTrue(paths.lastLineIsKeptSet)
    XCTAssertNil(try mismatch(count, set: 7, ["zzz"]))
    XCTAssertEqual(
      try mismatch(#"[{"op":"set","path":"count","value":{"a":1}}]"#, set: 7, ["zzz"]),
      ["count"])
    XCTAssertEqual(try mismatch(count, set: 8, ["title"]), ["count"])
    XCTAssertEqual(try mismatch(title, set: 7, ["count"]), ["title"])
    XCTAssertEqual(try mismatch(count, set: 7, ["zzz"]), ["count"])
    XCTAssertEqual(
      try mismatch(#"[{"op":"remove","path":"title"}]"#, set: 7, ["count"]), ["title"])
    XCTAssertFalse(paths.lastLineIsKeptSet)
    XCTAssertEqual(
      try mismatch(#"[{"op":"insert","path":"count","value":1}]"#, set: 7, ["zzz"]), ["count"])
    XCTAssertFalse(paths.lastLineIsKeptSet)
  }
}

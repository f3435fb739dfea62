import TestSupport
import XCTest

@testable import TraceValues

/// `TraceDiff.apply` sets a field of the root object in place, without a patcher: a seeded
/// walk of changes of every kind, applied that way, moved out of their array
/// (`apply(taking:to:)`) and one patcher per change, must leave the same value and fail on
/// the same change with the same message.
final class PatcherTests: XCTestCase {
  /// Keys with the same text in two encodings ("é" as one scalar and as "e" plus an accent),
  /// which `==` on `String` treats as equal and a field lookup must not.
  static let keys = ["count", "café", "cafe\u{301}", "tags", "note", "a"]

  /// Each change alone, through a patcher: what `TraceDiff.apply` did before the shortcut.
  func patched(_ changes: [TraceChange], _ value: inout TraceValue) -> String? {
    for change in changes {
      var patcher = Patcher(change: change)
      do {
        try patcher.apply(to: &value)
      } catch {
        return "\(error)"
      }
    }
    return nil
  }

  func randomValue(_ random: inout SplitMix) -> TraceValue {
    switch random.next() % 5 {
    case 0: .int(Int64(random.next() % 100))
    case 1: .string("s\(random.next() % 10)")
    case 2: .array([.int(1), .int(2)])
    case 3: .object([TraceField("inner", .bool(true))])
    default: .null
    }
  }

  func randomChange(_ random: inout SplitMix) -> TraceChange {
    let key = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
    let value = randomValue(&random)
    switch random.next() % 8 {
    case 0: return .remove(TracePath([.key(key)]))
    case 1: return .insert(TracePath([.key("tags"), .index(Int(random.next() % 4))]), value)
    case 2: return .set(TracePath([.key(key), .key("inner")]), value)
    case 3: return .set(TracePath([]), .object([TraceField("count", value)]))
    case 4: return .set(TracePath([.index(0)]), value)
    default: return .set(TracePath([.key(key)]), value)
    }
  }

  func testRootFieldSetsMatchOnePatcherPerChange() {
    var random = SplitMix(seed: 11)
    var shortcut = 0
    for _ in 0..<2_000 {
      var start: TraceValue = .object([
        TraceField("count", .int(0)), TraceField("café", .string("x")),
        TraceField("tags", .array([.int(1)])),
      ])
      if random.next() % 10 == 0 { start = .array([.int(1)]) }
      if random.next() % 10 == 0 {
        // A duplicate key: the first field of that key is the one set.
        start = .object([TraceField("a", .int(1)), TraceField("a", .int(2))])
      }
      let changes = (0..<Int(random.next() % 5)).map { _ in randomChange(&random) }
      var fast = start
      var slow = start
      var failure: String?
      do {
        try TraceDiff.apply(changes, to: &fast)
      } catch {
        failure = "\(error)"
      }
      XCTAssertEqual(failure, patched(changes, &slow), "\(start) \(changes)")
      XCTAssertEqual(fast, slow, "\(start) \(changes)")
      var taken = start
      var moved = changes
      var takenFailure: String?
      do {
        try TraceDiff.apply(taking: &moved, to: &taken)
      } catch {
        takenFailure = "\(error)"
      }
      XCTAssertEqual(takenFailure, failure, "\(start) \(changes)")
      XCTAssertEqual(taken, slow, "\(start) \(changes)")
      XCTAssertTrue(moved.isEmpty)
      if case .set(let path, _)? = changes.first, path.components.count == 1 { shortcut += 1 }
    }
    XCTAssertGreaterThan(shortcut, 500)
  }

  func testASetOfAKeyInAnotherEncodingAddsAField() throws {
    var value: TraceValue = .object([TraceField("café", .int(1))])
    try TraceDiff.apply([.set(TracePath([.key("cafe\u{301}")]), .int(2))], to: &value)
    XCTAssertEqual(
      value, .object([TraceField("café", .int(1)), TraceField("cafe\u{301}", .int(2))]))
    try TraceDiff.apply([.set(TracePath([.key("café")]), .int(3))], to: &value)
    XCTAssertEqual(
      value, .object([TraceField("café", .int(3)), TraceField("cafe\u{301}", .int(2))]))
  }
}

import TestSupport
import XCTest

@testable import TraceValues

/// `TraceDiff.RepeatedRootSet` sets again, by its place, the root field the call before set
/// through the same path: a seeded walk of steps that mostly repeat one of a few paths (the
/// same `TracePath` handed out again, as a parser's cache does), with every other kind of
/// change between them, must leave the value `apply(taking:to:)` leaves and fail where it
/// fails, with the same message.
final class RepeatedRootSetTests: XCTestCase {
  /// Keys with the same text in two encodings, which a field lookup must not equate.
  static let keys = ["count", "café", "cafe\u{301}", "tags", "a long key of more than 15 bytes"]
  /// One path per key, handed out again and again.
  let paths = keys.map { TracePath([.key($0)]) }

  func randomValue(_ random: inout SplitMix) -> TraceValue {
    switch random.next() % 4 {
    case 0: .string("s\(random.next() % 10)")
    case 1: .array([.int(1)])
    default: .int(Int64(random.next() % 100))
    }
  }

  /// Mostly a `set` of a kept path; sometimes a path made again (the same key, another
  /// storage), a removal or an insertion of a root field, a `set` inside a field, or two
  /// changes.
  func randomChanges(_ random: inout SplitMix) -> [TraceChange] {
    let pick = Int(random.next() % UInt64(Self.keys.count))
    let value = randomValue(&random)
    switch random.next() % 12 {
    case 0: return [.set(TracePath([.key(Self.keys[pick])]), value)]
    case 1: return [.remove(paths[pick])]
    case 2: return [.set(TracePath([.key(Self.keys[pick]), .key("inner")]), value)]
    case 3: return [.set(paths[pick], value), .set(paths[(pick + 1) % paths.count], value)]
    case 4: return [.insert(TracePath([.key("tags"), .index(0)]), value)]
    default: return [.set(paths[pick % 2], value)]
    }
  }

  func start(_ random: inout SplitMix) -> TraceValue {
    switch random.next() % 6 {
    // A duplicate key: the first field of that key is the one set.
    case 0: .object([TraceField("count", .int(1)), TraceField("count", .int(2))])
    case 1: .object([TraceField("café", .int(1)), TraceField("count", .int(0))])
    case 2: .array([.int(1)])
    default:
      .object([
        TraceField("count", .int(0)), TraceField("café", .string("x")),
        TraceField("tags", .array([.int(1)])),
      ])
    }
  }

  /// What `body` throws, as text; nil when it throws nothing.
  func failure(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  func testStepsApplyAsTheGenericApply() {
    var random = SplitMix(seed: 31)
    var repeated = 0
    for _ in 0..<200 {
      var applier = TraceDiff.RepeatedRootSet()
      var value = start(&random)
      var expected = value
      var lastPath: TracePath?
      for _ in 0..<60 {
        if random.next() % 25 == 0 {
          // A whole value put in place, as a replay does after a gap: forgotten.
          value = start(&random)
          expected = value
          applier.forget()
        }
        let changes = randomChanges(&random)
        if changes.count == 1, case .set(let path, _) = changes[0], path == lastPath {
          repeated += 1
        }
        lastPath = changes.count == 1 ? changes[0].path : nil
        var generic = changes
        let expectedFailure = failure { try TraceDiff.apply(taking: &generic, to: &expected) }
        var taken = changes
        let actualFailure = failure { try applier.apply(taking: &taken, to: &value) }
        XCTAssertEqual(actualFailure, expectedFailure, "\(changes)")
        XCTAssertEqual(value, expected, "\(changes)")
        XCTAssertTrue(taken.isEmpty)
        if actualFailure != nil {
          // A replay stops here; the walk starts again.
          value = start(&random)
          expected = value
          applier.forget()
        }
      }
    }
    // Many steps repeat the path of the step before, as a replay's do.
    XCTAssertGreaterThan(repeated, 2_000)
  }

  /// A whole value put in place, forgotten, whose field at the old place has the key again
  /// but is not the first with it (a damaged state's duplicate key): the first is set, as
  /// `apply(taking:to:)` sets it, not the one at the old place.
  func testAWholeValuePutInPlaceIsLookedAtAgainOnceForgotten() throws {
    let count = TracePath([.key("count")])
    var applier = TraceDiff.RepeatedRootSet()
    var value = TraceValue.object([TraceField("n", .int(0)), TraceField("count", .int(0))])
    var changes: [TraceChange] = [.set(count, .int(1))]
    try applier.apply(taking: &changes, to: &value)
    XCTAssertEqual(value, .object([TraceField("n", .int(0)), TraceField("count", .int(1))]))
    value = .object([TraceField("count", .int(5)), TraceField("count", .int(6))])
    applier.forget()
    for number in Int64(2)...3 {
      changes = [.set(count, .int(number))]
      try applier.apply(taking: &changes, to: &value)
      XCTAssertEqual(
        value, .object([TraceField("count", .int(number)), TraceField("count", .int(6))]))
    }
  }
}

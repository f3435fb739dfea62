import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// An identified array's cache writes its keyframe JSON from its elements' kept JSON, and from
/// the trees of the elements set since the last keyframe, which it keeps: in any mix, at any
/// place in a run, into a buffer that grows or not, the bytes are the whole array's.
final class ElementCacheJSONTests: XCTestCase {
  func testKeptAndWrittenElementsInAnyMixWriteTheWholeArraysJSON() {
    var random = SplitMix(seed: 0x15_0A)
    for count in [0, 1, 2, 63, 64, 65, 127, 128, 129, 200] {
      var trees = (0..<count).map { Self.element($0) }
      var cache = ElementCache(trees: trees)
      assertWritesWhole(&cache, trees, "\(count), encoded")
      XCTAssertEqual(cache.jsonCount, Self.json(trees).count + (count > 0 ? 1 : 0), "\(count)")
      guard count > 0 else { continue }
      // Set before a keyframe: the first and last of the array, whole runs, and random ones.
      let picks: [[Int]] = [
        [0], [count - 1], Array(0..<Swift.min(count, 64)),
        (0..<8).map { _ in Int(random.next() % UInt64(count)) },
        Array(stride(from: 1, to: count, by: 2)),
      ]
      for (round, indices) in picks.enumerated() {
        for index in indices {
          trees[index] = Self.element(index &+ 1_000 &* (round + 1))
          cache.set(index, tree: trees[index])
        }
        cache.rehash()
        assertWritesWhole(&cache, trees, "\(count), round \(round)")
        // Their JSON kept now: written again from kept bytes only.
        assertWritesWhole(&cache, trees, "\(count), round \(round), kept")
        for index in indices {
          XCTAssertEqual(cache.json(index), Self.json(trees[index]), "\(count), \(index)")
        }
      }
    }
  }

  /// Writes the cache's JSON into a buffer that must grow and into one that need not.
  private func assertWritesWhole(
    _ cache: inout ElementCache, _ trees: [TraceValue], _ message: String,
    line: UInt = #line
  ) {
    let expected = Self.json(.array(trees))
    for capacity in [16, expected.count + 64] {
      var buffer = JSONBuffer(capacity: capacity)
      buffer.appendByte(UInt8(ascii: "x"))
      cache.writeJSON(into: &buffer)
      XCTAssertEqual(
        Array(buffer.bytes), [UInt8(ascii: "x")] + expected, "\(message), capacity \(capacity)",
        line: line)
    }
  }

  private static func json(_ trees: [TraceValue]) -> [UInt8] { json(.array(trees)) }

  private static func json(_ tree: TraceValue) -> [UInt8] {
    var bytes: [UInt8] = []
    tree.writeJSON(into: &bytes)
    return bytes
  }

  /// Objects, arrays, strings and numbers of varied lengths, by `index`.
  private static func element(_ index: Int) -> TraceValue {
    switch index % 4 {
    case 0:
      .object([
        TraceField("id", .int(Int64(index))),
        TraceField("title", .string(String(repeating: "t", count: index % 37))),
      ])
    case 1: .array([.int(Int64(index)), .bool(index % 2 == 0)])
    case 2: .string("a string \(index)")
    default: .int(Int64(index))
    }
  }
}

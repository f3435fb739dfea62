import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// An identified array's cache hashes its runs from its containers' head words and hashes and
/// its scalars' trees: with any mix of the two, in any run, its hash is the whole array's.
final class ElementCacheHashTests: XCTestCase {
  func testAnyMixOfContainersAndScalarsHashesAsTheWholeArray() {
    var random = SplitMix(seed: 0xE1E7)
    for count in [0, 1, 2, 7, 63, 64, 65, 127, 128, 129, 200, 321] {
      // Containers only, scalars only, and runs of each of a random length.
      for mix in 0..<4 {
        var trees = (0..<count).map { index in
          Self.element(index, container: Self.isContainer(mix: mix, &random))
        }
        var cache = ElementCache(trees: trees)
        XCTAssertEqual(cache.hash, TraceValue.array(trees).stableHash, "\(count), mix \(mix)")
        guard count > 0 else { continue }
        // A scalar becomes a container and a container a scalar, in runs hashed again.
        for _ in 0..<5 {
          let index = Int(random.next() % UInt64(count))
          let container = !MerkleHash.isContainer(trees[index])
          trees[index] = Self.element(index &+ 1_000, container: container)
          cache.set(index, tree: trees[index])
        }
        cache.rehash()
        XCTAssertEqual(cache.hash, TraceValue.array(trees).stableHash, "\(count), mix \(mix) set")
      }
    }
  }

  private static func isContainer(mix: Int, _ random: inout SplitMix) -> Bool {
    switch mix {
    case 0: true
    case 1: false
    case 2: random.next() % 2 == 0
    default: random.next() % 8 != 0
    }
  }

  /// An object, array or enum case, or a scalar of each kind, by `index`.
  private static func element(_ index: Int, container: Bool) -> TraceValue {
    if container {
      switch index % 3 {
      case 0:
        return .object([
          TraceField("id", .int(Int64(index))), TraceField("title", .string("Todo \(index)")),
        ])
      case 1: return .array([.int(Int64(index)), .bool(index % 2 == 0)])
      default: return .enumCase("case\(index % 5)", [TraceField("_0", .int(Int64(index)))])
      }
    }
    switch index % 5 {
    case 0: return .int(Int64(index))
    case 1: return .string("a string of some length \(index)")
    case 2: return .bool(index % 2 == 0)
    case 3: return .null
    default: return .double(Double(index) / 3)
    }
  }
}

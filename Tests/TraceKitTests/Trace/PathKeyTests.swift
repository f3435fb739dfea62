import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `StepLine.Encoder` keeps the text of the paths it wrote under `PathKey`s: a path must come
/// out in its own bytes whatever was written before it.
final class PathKeyTests: XCTestCase {
  func testKeysAreEqualExactlyWhenThePathsHaveTheSameBytes() throws {
    func key(_ components: [TracePath.Component]) -> PathKey? { PathKey(TracePath(components)) }
    let row: [TracePath.Component] = [.key("todos"), .id(.string("1")), .key("title")]
    XCTAssertEqual(key(row), key(row))
    XCTAssertEqual(key([]), key([]))
    // Equal as Swift strings (canonical equivalence), not in bytes.
    XCTAssertNotEqual(key([.key("caf\u{E9}")]), key([.key("cafe\u{301}")]))
    XCTAssertNotEqual(key([.id(.string("1"))]), key([.key("1")]))
    XCTAssertNotEqual(key([.id(.int(1))]), key([.id(.uint(1))]))
    XCTAssertNotEqual(key([.id(.int(1))]), key([.index(1)]))
    XCTAssertNotEqual(key([.key("ab"), .key("c")]), key([.key("a"), .key("bc")]))
    XCTAssertNotEqual(key([.key("a")]), key([.key("a"), .key("a")]))
    // An id of another kind has no key: its path is written without the cache.
    XCTAssertNil(key([.key("rows"), .id(.object([TraceField("a", .int(1))]))]))
    XCTAssertNil(key([.id(.double(1))]))
  }

  /// Paths repeated, alternating, colliding in the cache's slots (more paths than slots) and
  /// differing only in bytes: each change is written in exactly the bytes of its JSON value.
  func testEveryChangeIsWrittenInTheBytesOfItsJSONValue() {
    let pieces = [
      "todos", "title", "caf\u{E9}", "cafe\u{301}", "\"", "\\", "a.b", "[", "", "é", "😀",
      "00000000-0000-0000-007D-000000000007", "x\ny", "\u{1}",
    ]
    var random = SplitMix(seed: 8)
    func component() -> TracePath.Component {
      let piece = pieces[Int(random.next() % UInt64(pieces.count))]
      switch random.next() % 7 {
      case 0: return .index(Int(random.next() % 5))
      case 1: return .id(.int(Int64(random.next() % 5) - 2))
      case 2: return .id(.uint(random.next() % 3))
      case 3: return .id(.string(piece))
      case 4: return .id(.array([.string(piece)]))
      default: return .key(piece)
      }
    }
    let paths = (0..<3_000).map { _ in
      TracePath((0..<Int(random.next() % 4)).map { _ in component() })
    }
    var encoder = StepLine.Encoder()
    for round in 0..<3 {
      for (index, path) in paths.enumerated() {
        let change: TraceChange =
          index % 2 == 0 ? .set(path, .int(Int64(round))) : .remove(path)
        var written: [UInt8] = []
        encoder.writeChange(change, into: &written)
        var expected: [UInt8] = []
        change.jsonValue.writeJSON(into: &expected)
        // Compared as bytes: as strings, canonically equivalent texts would pass.
        XCTAssertEqual(written, expected, String(decoding: expected, as: UTF8.self))
        guard written == expected else { return }
      }
    }
  }
}

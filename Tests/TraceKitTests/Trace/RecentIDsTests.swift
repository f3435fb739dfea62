import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// `RecentIDs` finds a value by its bits, then by a quick key, then by its row's key: the ids
/// it gives are the ones a table of row keys alone gives (`String`: canonically equal paths
/// are one row; `[String]`: lists of the same bytes are one row).
final class RecentIDsTests: XCTestCase {
  func testActionPathsGetTheIDsOfATableOfStrings() throws {
    // Short strings (their bits are their bytes), long ones made anew each time (other bits,
    // the same bytes), and canonically equal ones in other bytes.
    let pieces = ["plus", "minus", "caf\u{E9}", "cafe\u{301}", "\u{212A}", "K", ""]
    var random = SplitMix(seed: 25)
    var ids = RecentIDs<String>()
    var expected: [String: Int] = [:]
    var inserted: [Int] = []
    for _ in 0..<5_000 {
      let piece = pieces[Int(random.next() % UInt64(pieces.count))]
      let path =
        random.next() % 2 == 0
        ? piece : String(decoding: Array((piece + ".a.long.action.path").utf8), as: UTF8.self)
      let id = try ids.id(of: path) { id in inserted.append(id) }
      let want = expected[path] ?? expected.count
      expected[path] = want
      XCTAssertEqual(id, want, "\(path.unicodeScalars.map(\.value))")
    }
    XCTAssertEqual(inserted, Array(0..<expected.count))
  }

  func testPathSetsGetTheIDsOfATableOfTheirBytes() throws {
    let texts = ["count", "caf\u{E9}", "cafe\u{301}", "todos[id: 1].title.with.a.long.name"]
    var random = SplitMix(seed: 26)
    var ids = RecentIDs<[String]>()
    var expected: [[[UInt8]]: Int] = [:]
    var inserted: [Int] = []
    var kept: [[String]] = []
    for _ in 0..<5_000 {
      var set: [String]
      if !kept.isEmpty, random.next() % 2 == 0 {
        // The same array (the same bits) as an earlier step's.
        set = kept[Int(random.next() % UInt64(kept.count))]
      } else {
        set = []
        for _ in 0..<random.next() % 3 {
          let text = texts[Int(random.next() % UInt64(texts.count))]
          // New storage for the long text: the same bytes in other bits.
          set.append(String(decoding: Array(text.utf8), as: UTF8.self))
        }
        kept.append(set)
        if kept.count > 8 { kept.removeFirst() }
      }
      let id = try ids.id(of: set) { id in inserted.append(id) }
      let bytes = set.map { Array($0.utf8) }
      let want = expected[bytes] ?? expected.count
      expected[bytes] = want
      XCTAssertEqual(id, want, "\(set)")
    }
    XCTAssertEqual(inserted, Array(0..<expected.count))
  }

  /// More values met again than the quick table keeps: it is emptied, and each value is still
  /// found under its row's key.
  func testValuesBeyondTheQuickTablesBoundKeepTheirIDs() throws {
    let count = RecentIDs<String>.quickLimit + 100
    let paths = (0..<count).map { "feature.action.number.\($0)" }
    var ids = RecentIDs<String>()
    var inserted = 0
    for round in 0..<3 {
      for (index, path) in paths.enumerated() {
        // A copy in new storage: the last two by bits never hold it.
        let copy = String(decoding: Array(path.utf8), as: UTF8.self)
        XCTAssertEqual(try ids.id(of: copy) { _ in inserted += 1 }, index, "round \(round)")
      }
    }
    XCTAssertEqual(inserted, count)
  }

  /// A value whose insert threw stays unknown: its id is given again, and inserted again.
  func testAValueWhoseInsertThrewGetsTheSameIDNextTime() throws {
    var ids = RecentIDs<String>()
    XCTAssertEqual(try ids.id(of: "a") { _ in }, 0)
    XCTAssertThrowsError(
      try ids.id(of: "b") { _ throws(TraceError) in
        throw TraceError(.invalidWrite("full"), file: "t.rewind")
      })
    var inserted: [Int] = []
    XCTAssertEqual(try ids.id(of: "b") { inserted.append($0) }, 1)
    XCTAssertEqual(try ids.id(of: "b") { inserted.append($0) }, 1)
    XCTAssertEqual(try ids.id(of: "a") { inserted.append($0) }, 0)
    XCTAssertEqual(inserted, [1])
  }
}

import TraceKit
import TraceValues
import XCTest

@testable import TraceRecorder

/// `PlainPatterns`: which changed paths the type collector may skip, read as
/// `SwiftTypeTable.pattern(of:in:)` reads them (ids and indices as `[]`, a dictionary's keys
/// as `[]`).
final class PlainPatternsTests: XCTestCase {
  private let entries: [String: SwiftTypeEntry] = [
    "": SwiftTypeEntry(type: "App.State", kind: .struct),
    "todos": SwiftTypeEntry(type: "IdentifiedArray<Int, Todo>", kind: .identifiedArray),
    "todos[]": SwiftTypeEntry(type: "Todo", kind: .struct),
    "todos[].title": SwiftTypeEntry(type: "Swift.String", kind: .string),
    "todos[].status": SwiftTypeEntry(type: "Status", kind: .enum, cases: ["idle"]),
    "scores": SwiftTypeEntry(type: "[String: Int]", kind: .dictionary, keyType: "Swift.String"),
    "scores[]": SwiftTypeEntry(type: "Swift.Int", kind: .integer),
    "sort": SwiftTypeEntry(
      type: "Sort", kind: .enum, cases: ["title"], rawValues: ["title": "title"]),
    "detail": SwiftTypeEntry(type: "Detail", kind: .other, optional: true),
    "printed": SwiftTypeEntry(type: "Printed", kind: .enum),
  ]

  private func path(_ components: TracePath.Component...) -> TracePath {
    TracePath(components)
  }

  func testAPlainPatternCoversEveryElementAndEveryDictionaryKey() {
    let plain = PlainPatterns()
    XCTAssertFalse(plain.contains(path(.key("todos"), .id(.int(3)), .key("title"))))
    XCTAssertTrue(plain.insert(path(.key("todos"), .id(.int(3)), .key("title")), in: entries))
    XCTAssertTrue(plain.contains(path(.key("todos"), .id(.int(3)), .key("title"))))
    XCTAssertTrue(plain.contains(path(.key("todos"), .id(.int(9)), .key("title"))))
    XCTAssertTrue(plain.contains(path(.key("todos"), .index(4), .key("title"))))
    // Not inserted: the element itself, its enum, a field no entry has.
    XCTAssertFalse(plain.contains(path(.key("todos"), .id(.int(9)))))
    XCTAssertFalse(plain.contains(path(.key("todos"), .id(.int(9)), .key("status"))))
    XCTAssertFalse(plain.contains(path(.key("todos"), .id(.int(9)), .key("note"))))
    XCTAssertFalse(plain.contains(path(.key("title"))))

    XCTAssertTrue(plain.insert(path(.key("scores"), .key("alice")), in: entries))
    XCTAssertTrue(plain.contains(path(.key("scores"), .key("bob"))))
    XCTAssertTrue(plain.insert(path(.key("scores")), in: entries))
    XCTAssertTrue(plain.contains(path(.key("scores"))))
  }

  func testWhereAValueCanStillBringATypeNothingIsInserted() {
    let plain = PlainPatterns()
    let refused = [
      path(.key("todos"), .id(.int(1)), .key("status")),  // an enum: a case may be new
      path(.key("sort")),  // raw values
      path(.key("detail")),  // an optional never seen holding a value
      path(.key("detail"), .key("name")),  // below it: not known
      path(.key("printed")),  // an enum that prints itself (no cases yet)
      path(.key("todos"), .id(.int(1)), .key("note")),  // no entry
      // A struct, or a collection of them: a value set there whole may hold a case.
      path(.key("todos"), .id(.int(1))),
      path(.key("todos")),
      path(),
    ]
    for path in refused {
      XCTAssertFalse(plain.insert(path, in: entries), "\(path)")
      XCTAssertFalse(plain.contains(path), "\(path)")
    }
    XCTAssertFalse(PlainPatterns().insert(path(.key("scores")), in: [:]))
  }
}

import TraceKit
import XCTest

@testable import TraceRecorder

final class PathTextsTests: XCTestCase {
  /// Every text is the path's own description, whether it was kept or built: paths met again
  /// in another order, paths that differ only in an id, an index or a key that is not an
  /// identifier, and more distinct paths than are kept.
  func testEveryTextIsThePathsDescriptionWhetherKeptOrBuilt() {
    var paths: [TracePath] = [
      TracePath([.key("count")]),
      TracePath([.key("counter"), .key("count")]),
      TracePath([.key("todos"), .id(.int(3)), .key("title")]),
      TracePath([.key("todos"), .id(.int(4)), .key("title")]),
      TracePath([.key("todos"), .id(.string("4")), .key("title")]),
      TracePath([.key("todos"), .index(4), .key("title")]),
      TracePath([.key("a b"), .index(2)]),
      TracePath([.key("a"), .key("b")]),
      TracePath([.key("ab")]),
      TracePath(),
    ]
    for index in 0..<20 {
      paths.append(TracePath([.key("rows"), .id(.int(Int64(index))), .key("done")]))
    }
    var texts = PathTexts()
    var order = Array(paths.indices)
    for round in 0..<4 {
      for index in order {
        XCTAssertEqual(texts.text(of: paths[index]), paths[index].description, "round \(round)")
      }
      order = round % 2 == 0 ? order.reversed() : order.shuffled()
    }
    XCTAssertEqual(texts.text(of: paths[2]), "todos[id: 3].title")
    XCTAssertEqual(texts.text(of: paths[4]), #"todos[id: "4"].title"#)
    XCTAssertEqual(texts.text(of: paths[5]), "todos[4].title")
    XCTAssertEqual(texts.text(of: paths[6]), #"["a b"][2]"#)
    XCTAssertEqual(texts.text(of: paths[9]), ".")
    // More distinct paths than are kept: the texts start again, and stay the paths' own.
    for round in 0..<2 {
      for index in 0..<(PathTexts.limit + 100) {
        let path = TracePath([.key("rows"), .index(index), .key("title")])
        XCTAssertEqual(texts.text(of: path), "rows[\(index)].title", "round \(round)")
      }
    }
    XCTAssertEqual(texts.text(of: paths[2]), "todos[id: 3].title")
  }
}

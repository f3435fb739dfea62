import ComposableCore
import Foundation
import XCTest

private struct Todo: Identifiable, Equatable, Codable, Sendable {
  var id: Int
  var title: String
}

final class IdentifiedArrayTests: XCTestCase {
  private var sample: IdentifiedArrayOf<Todo> {
    [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 3, title: "c")]
  }

  func testLookupAndMutationByID() {
    var todos = sample
    XCTAssertEqual(todos[id: 2]?.title, "b")
    todos[id: 2]?.title = "B"
    XCTAssertEqual(todos.map(\.title), ["a", "B", "c"])
    todos[id: 4] = Todo(id: 4, title: "d")
    XCTAssertEqual(todos.ids, [1, 2, 3, 4])
    todos[id: 1] = nil
    XCTAssertEqual(todos.ids, [2, 3, 4])
    XCTAssertEqual(todos.index(id: 4), 2)
  }

  func testAppendIgnoresDuplicateIDs() {
    var todos = sample
    let result = todos.append(Todo(id: 2, title: "dup"))
    XCTAssertFalse(result.inserted)
    XCTAssertEqual(result.index, 1)
    XCTAssertEqual(todos.count, 3)
  }

  func testInsertRemoveAndMoveKeepIndexConsistent() {
    var todos = sample
    todos.insert(Todo(id: 0, title: "z"), at: 0)
    XCTAssertEqual(todos.ids, [0, 1, 2, 3])
    XCTAssertEqual(todos[id: 3]?.title, "c")
    todos.remove(at: 1)
    XCTAssertEqual(todos.ids, [0, 2, 3])
    todos.move(fromOffsets: [0], toOffset: 3)
    XCTAssertEqual(todos.ids, [2, 3, 0])
    XCTAssertEqual(todos.index(id: 0), 2)
    todos.remove(atOffsets: [0, 2])
    XCTAssertEqual(todos.ids, [3])
    XCTAssertEqual(todos[id: 3]?.title, "c")
    todos.removeAll()
    XCTAssertTrue(todos.isEmpty)
  }

  func testCodableRoundTripAndDuplicateRejection() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(sample)
    XCTAssertEqual(
      String(decoding: data, as: UTF8.self),
      #"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"}]"#
    )
    XCTAssertEqual(try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data), sample)
    let duplicate = Data(#"[{"id":1,"title":"a"},{"id":1,"title":"b"}]"#.utf8)
    XCTAssertThrowsError(try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: duplicate))
  }
}

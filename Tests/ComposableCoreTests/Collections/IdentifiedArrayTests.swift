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

  func testPositionSubscriptWritesInPlace() {
    var todos = IdentifiedArrayOf<Todo>(
      uniqueElements: (1...130).map { Todo(id: $0, title: "t\($0)") })
    let before = todos
    todos[1].title = "second"
    todos[100].title = "hundred-and-first"
    XCTAssertEqual(todos[id: 2]?.title, "second")
    XCTAssertEqual(todos[id: 101]?.title, "hundred-and-first")
    XCTAssertEqual(before[1].title, "t2")
    XCTAssertEqual(todos.chunksChanged(since: before), [0, 1])
    todos[0] = Todo(id: 1, title: "first")
    XCTAssertEqual(todos.prefix(2).map(\.title), ["first", "second"])
  }

  func testSetterByIDRefusesAnElementWithAnotherID() {
    var todos = sample
    let (_, issues) = withIssueCollection {
      todos[id: 1] = Todo(id: 2, title: "x")
    }
    XCTAssertEqual(todos, sample)
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Element identity must remain constant: an element with id 2 was written at [id: 1] \
        of an IdentifiedArray<Int, Todo> (the element there has id 1); the write was ignored.
        """
      ])
  }

  func testPositionSetterRefusesAnElementWithAnotherID() {
    var todos = sample
    let (_, issues) = withIssueCollection {
      todos[2].id = 9
    }
    XCTAssertEqual(todos, sample)
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        Element identity must remain constant: an element with id 9 was written at [2] of an \
        IdentifiedArray<Int, Todo> (the element there has id 3); the write was ignored.
        """
      ])
  }

  func testAppendIgnoresDuplicateIDs() {
    var todos = sample
    let result = todos.append(Todo(id: 2, title: "dup"))
    XCTAssertFalse(result.inserted)
    XCTAssertEqual(result.index, 1)
    XCTAssertEqual(todos.count, 3)
  }

  /// The ids an array no longer holds since an earlier list of its ids, in their order: a
  /// move (none), removals in the middle and at either end, a move with a removal, a removal
  /// and an insertion that keep the count, and lists whose changed middle is longer than 16
  /// (looked up in the id table rather than compared).
  func testIDsRemovedSinceAnEarlierListOfItsIDs() {
    func rows(_ ids: [Int]) -> IdentifiedArrayOf<Todo> {
      IdentifiedArrayOf(uniqueElements: ids.map { Todo(id: $0, title: "t\($0)") })
    }
    XCTAssertEqual(rows([1, 2, 3, 4]).idsRemoved(since: [1, 2, 3, 4]), [])
    XCTAssertEqual(rows([2, 3, 1, 4]).idsRemoved(since: [1, 2, 3, 4]), [])
    XCTAssertEqual(rows([1, 3, 4]).idsRemoved(since: [1, 2, 3, 4]), [2])
    XCTAssertEqual(rows([2, 3, 4]).idsRemoved(since: [1, 2, 3, 4]), [1])
    XCTAssertEqual(rows([1, 2, 3]).idsRemoved(since: [1, 2, 3, 4]), [4])
    XCTAssertEqual(rows([3]).idsRemoved(since: [1, 2, 3]), [1, 2])
    XCTAssertEqual(rows([2, 4, 1]).idsRemoved(since: [1, 2, 3, 4]), [3])
    XCTAssertEqual(rows([1, 5, 3, 4]).idsRemoved(since: [1, 2, 3, 4]), [2])
    XCTAssertEqual(rows([]).idsRemoved(since: [1, 2]), [1, 2])
    XCTAssertEqual(rows([1, 2]).idsRemoved(since: []), [])
    let long = Array(1...40)
    XCTAssertEqual(rows(long.reversed()).idsRemoved(since: long), [])
    XCTAssertEqual(
      rows(long.reversed().filter { $0 != 7 && $0 != 30 }).idsRemoved(since: long), [7, 30])
    XCTAssertEqual(rows([0] + Array(2...40) + [41]).idsRemoved(since: long), [1])
    XCTAssertEqual(rows(Array(1...10) + Array(31...40)).idsRemoved(since: long), Array(11...30))
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

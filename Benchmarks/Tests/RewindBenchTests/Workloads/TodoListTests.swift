import Foundation
import XCTest

@testable import rewind_bench

final class TodoListTests: XCTestCase {
  func testActionsTouchOneTodoAndCountEdits() {
    var state = TodoList.State(count: 10)
    let before = state
    XCTAssertEqual(TodoList.action(at: 1, count: 10), .toggleCompleted(id: TodoList.id(9)))
    _ = TodoList().reduce(into: &state, action: TodoList.action(at: 1, count: 10))
    XCTAssertEqual(state.editCount, 1)
    // Todo 9 starts completed (every third one does); the toggle clears it.
    XCTAssertEqual(state.todos[id: TodoList.id(9)]?.isComplete, false)
    XCTAssertEqual(
      zip(before.todos, state.todos).filter { $0 != $1 }.map(\.0.id), [TodoList.id(9)])
    XCTAssertEqual(
      TodoList.action(at: 4, count: 10), .titleChanged(id: TodoList.id(6), title: "Renamed 4"))
  }

  func testSnapshotLogFramingMatchesJSONEncoder() throws {
    // The size-vs-snapshots case counts a log line as element sizes plus a fixed framing;
    // for three todos the framing is {"todos":[ (10) + two commas + ],"editCount": (14) + }.
    let state = TodoList.State(count: 3)
    let encoder = JSONEncoder()
    let elements = try state.todos.map { try encoder.encode($0).count }.reduce(0, +)
    let whole = try encoder.encode(state).count
    XCTAssertEqual(whole - elements - String(state.editCount).utf8.count, 27)
  }
}

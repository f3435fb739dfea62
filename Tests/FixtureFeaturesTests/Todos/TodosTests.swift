import ComposableCore
import ComposableTesting
import FixtureSupport
import Foundation
import TodosFeature
import XCTest

@MainActor
final class TodosTests: XCTestCase {
  /// Six todos, "Todo 3" and "Todo 6" completed.
  let six = Todos.State(sampleCount: 6)

  func id(_ number: UInt64) -> UUID {
    UUID(fixture: number, namespace: 0x7D)
  }

  func testAddingATodoTakesItsIDFromTheUUIDDependencyAndSavesAfterTheDebounce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
      $0.uuid = .incrementing
      $0.date = .constant(testNow)
    }
    await store.send(.addTodoTapped(title: " Milk ")) {
      $0.todos = [Todo.State(id: UUID(fixture: 0), title: "Milk")]
      $0.hasUnsavedChanges = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: Todos.saveDebounce)
    await store.receive(.saved(.success(1))) {
      $0.hasUnsavedChanges = false
      $0.saveCount = 1
      $0.lastSavedAt = testNow
    }
  }

  func testQuickChangesAreSavedOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: six) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
      $0.date = .constant(testNow)
    }
    await store.send(.todos(.element(id: id(1), action: .toggleCompleted))) {
      $0.todos[id: self.id(1)]?.isComplete = true
      $0.hasUnsavedChanges = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(600))
    await store.send(.todos(.element(id: id(2), action: .titleChanged("Bread")))) {
      $0.todos[id: self.id(2)]?.title = "Bread"
    }
    await clock.waitForSleepers(1)
    // The first save was due now; the second change cancelled it.
    await clock.advance(by: .milliseconds(600))
    XCTAssertEqual(clock.sleeperCount, 1)
    await clock.advance(by: .milliseconds(400))
    await store.receive(.saved(.success(6))) {
      $0.hasUnsavedChanges = false
      $0.saveCount = 1
      $0.lastSavedAt = testNow
    }
  }

  func testRemovingATodoSchedulesASave() async {
    let clock = TestClock()
    let store = TestStore(initialState: six) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    await store.send(.removeTodo(id(4))) {
      $0.todos.remove(id: self.id(4))
      $0.hasUnsavedChanges = true
    }
    await store.send(.removeTodo(id(40)))
    store.skipInFlightEffects()
  }

  func testClearCompletedRemovesOnlyCompletedTodos() async {
    let clock = TestClock()
    let store = TestStore(initialState: six) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    await store.send(.clearCompletedTapped) {
      $0.todos.removeAll(where: \.isComplete)
      $0.hasUnsavedChanges = true
    }
    XCTAssertEqual(store.state.todos.map(\.title), ["Todo 1", "Todo 2", "Todo 4", "Todo 5"])
    store.skipInFlightEffects()
  }

  func testTheFilterChoosesTheShownTodos() async {
    let store = TestStore(initialState: six) { Todos() }
    await store.send(.filterChanged(.completed)) { $0.filter = .completed }
    XCTAssertEqual(store.state.filteredTodos.map(\.title), ["Todo 3", "Todo 6"])
    await store.send(.filterChanged(.active)) { $0.filter = .active }
    XCTAssertEqual(
      store.state.filteredTodos.map(\.title), ["Todo 1", "Todo 2", "Todo 4", "Todo 5"])
  }

  func testMovingInAFilteredListMovesTheShownTodo() async {
    var state = six
    state.filter = .active
    let clock = TestClock()
    let store = TestStore(initialState: state) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    // Shown: 1, 2, 4, 5. Move "Todo 5" (shown offset 3) to the top.
    await store.send(.move(fromOffsets: [3], toOffset: 0)) {
      $0.todos.move(fromOffsets: [4], toOffset: 0)
      $0.hasUnsavedChanges = true
    }
    XCTAssertEqual(
      store.state.todos.map(\.title),
      ["Todo 5", "Todo 1", "Todo 2", "Todo 3", "Todo 4", "Todo 6"]
    )
    // Move "Todo 1" (shown offset 1) below "Todo 4" (the end of the shown list).
    await store.send(.move(fromOffsets: [1], toOffset: 4)) {
      $0.todos.move(fromOffsets: [1], toOffset: 5)
    }
    XCTAssertEqual(
      store.state.todos.map(\.title),
      ["Todo 5", "Todo 2", "Todo 3", "Todo 4", "Todo 1", "Todo 6"]
    )
    store.skipInFlightEffects()
  }

  func testTheMoveBugAppliesShownOffsetsToTheWholeList() async {
    var state = six
    state.filter = .active
    let clock = TestClock()
    let store = TestStore(initialState: state) {
      Todos(bug: .moveIgnoresFilter)
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    await store.send(.move(fromOffsets: [3], toOffset: 0)) {
      $0.todos.move(fromOffsets: [3], toOffset: 0)
      $0.hasUnsavedChanges = true
    }
    // The user moved "Todo 5"; "Todo 4" moved.
    XCTAssertEqual(
      store.state.todos.map(\.title),
      ["Todo 4", "Todo 1", "Todo 2", "Todo 3", "Todo 5", "Todo 6"]
    )
    store.skipInFlightEffects()
  }

  func testWithoutAFilterTheBugChangesNothing() async {
    let clock = TestClock()
    let fixed = TestStore(initialState: six) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    let buggy = TestStore(initialState: six) {
      Todos(bug: .moveIgnoresFilter)
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
    }
    for store in [fixed, buggy] {
      await store.send(.move(fromOffsets: [0, 2], toOffset: 5)) {
        $0.todos.move(fromOffsets: [0, 2], toOffset: 5)
        $0.hasUnsavedChanges = true
      }
      store.skipInFlightEffects()
    }
    XCTAssertEqual(fixed.state, buggy.state)
  }

  func testInvalidMovesAreIgnored() async {
    var state = six
    state.filter = .completed
    let store = TestStore(initialState: state) { Todos() }
    await store.send(.move(fromOffsets: [2], toOffset: 0))
    await store.send(.move(fromOffsets: [0], toOffset: 3))
    await store.send(.move(fromOffsets: [], toOffset: 0))
  }

  func testAFailedSaveIsShown() async {
    let clock = TestClock()
    let store = TestStore(initialState: six) {
      Todos()
    } withDependencies: {
      $0.todosClient = .immediate
      $0.continuousClock = clock
      $0.todosClient.save = { _ in throw FetchFailure(message: "disk full") }
    }
    await store.send(.todos(.element(id: id(1), action: .toggleCompleted))) {
      $0.todos[id: self.id(1)]?.isComplete = true
      $0.hasUnsavedChanges = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: Todos.saveDebounce)
    await store.receive(.saved(.failure(FetchFailure(message: "disk full")))) {
      $0.errorMessage = "disk full"
    }
  }

  func testLiveClientSavesAfterItsDelay() async throws {
    let clock = TestClock()
    let todos = six.todos.elements
    let task = Task {
      try await withDependencies {
        $0.continuousClock = clock
      } operation: {
        try await TodosClient.live.save(todos)
      }
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(50))
    let saved = try await task.value
    XCTAssertEqual(saved, 6)
  }

  func testSampleStateIsSizedByItsParameter() {
    let state = Todos.State(sampleCount: 10_000)
    XCTAssertEqual(state.todos.count, 10_000)
    XCTAssertEqual(Set(state.todos.ids).count, 10_000)
    XCTAssertEqual(state.todos.filter(\.isComplete).count, 3_333)
    XCTAssertEqual(state.todos[9_999].title, "Todo 10000")
    XCTAssertEqual(state.todos[9_999].id.uuidString, "00000000-0000-0000-007D-000000002710")
  }

  func testStateAndActionsSurviveCoding() throws {
    var state = six
    state.lastSavedAt = testNow
    XCTAssertEqual(try roundTrip(state), state)
    let actions: [Todos.Action] = [
      .addTodoTapped(title: "A"), .removeTodo(id(1)), .move(fromOffsets: [1, 2], toOffset: 0),
      .filterChanged(.completed), .clearCompletedTapped, .saved(.success(3)),
      .todos(.element(id: id(2), action: .toggleCompleted)),
      .todos(.element(id: id(2), action: .titleChanged("B"))),
    ]
    XCTAssertEqual(try roundTrip(actions), actions)
    XCTAssertEqual(
      try json(Todos.Action.todos(.element(id: id(2), action: .toggleCompleted))),
      #"{"todos":{"_0":{"element":{"action":{"toggleCompleted":{}},"#
        + #""id":"00000000-0000-0000-007D-000000000002"}}}}"#
    )
  }

  func testDecodingAnIdentifiedActionWithAnotherKeyFails() {
    let text = #"{"elements":{"id":"00000000-0000-0000-007D-000000000002","action":{}}}"#
    XCTAssertThrowsError(
      try JSONDecoder().decode(
        IdentifiedAction<UUID, Todo.Action>.self, from: Data(text.utf8))
    )
  }
}

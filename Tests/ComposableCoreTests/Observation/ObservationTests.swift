import ComposableCore
import Observation
import XCTest

@MainActor
final class ObservationTests: XCTestCase {
  private func observe(_ read: @escaping () -> Void) -> Box<Bool> {
    let changed = Box(false)
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated { changed.value = true }
    }
    return changed
  }

  func testReaderOfOnePropertyIsNotInvalidatedByAnother() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let countChanged = observe { _ = store.count }
    let nameChanged = observe { _ = store.name }
    store.send(.rename("Blob"))
    XCTAssertFalse(countChanged.value)
    XCTAssertTrue(nameChanged.value)
    store.send(.plus)
    XCTAssertTrue(countChanged.value)
  }

  func testScopedStoreReaderIsNotInvalidatedBySiblingChanges() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let counter = store.scope(state: \.counter, action: .counter)
    let countChanged = observe { _ = counter.count }
    store.send(.addRow(1))
    XCTAssertFalse(countChanged.value)
    counter.send(.rename("x"))
    XCTAssertFalse(countChanged.value)
    counter.send(.plus)
    XCTAssertTrue(countChanged.value)
  }

  func testWholeStateReaderIsInvalidatedByAnyChange() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changed = observe { _ = store.state }
    store.send(.rename("Blob"))
    XCTAssertTrue(changed.value)
  }

  func testActionThatChangesNothingInvalidatesNobody() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changed = observe { _ = store.state }
    store.send(.rename(""))
    XCTAssertFalse(changed.value)
  }

  func testOptionalScopeReaderIsToldWhenChildAppears() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let changed = observe {
      _ = store.scope(state: \.detail, action: .detail) as Store<Counter.State, Counter.Action>?
    }
    store.send(.plusCounterOnly)
    XCTAssertFalse(changed.value)
    store.send(.showDetail)
    XCTAssertTrue(changed.value)
  }
}

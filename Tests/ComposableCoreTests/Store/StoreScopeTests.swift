import ComposableCore
import XCTest

@MainActor
final class StoreScopeTests: XCTestCase {
  func testSendRunsReducerAndEffect() async {
    let store: StoreOf<Counter> = Store(initialState: Counter.State()) { Counter() }
    store.send(.plus)
    XCTAssertEqual(store.count, 1)
    await store.send(.load).finish()
    XCTAssertEqual(store.loaded, "ok")
  }

  func testScopeReturnsCachedChildStore() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let first = store.scope(state: \.counter, action: .counter)
    let second = store.scope(state: \.counter, action: .counter)
    XCTAssertTrue(first === second)
    first.send(.plus)
    XCTAssertEqual(store.counter.count, 1)
    XCTAssertEqual(second.count, 1)
  }

  func testOptionalScopeFollowsPresence() {
    let store = Store(initialState: Parent.State()) { Parent() }
    func detail() -> Store<Counter.State, Counter.Action>? {
      store.scope(state: \.detail, action: .detail)
    }
    XCTAssertNil(detail())
    store.send(.showDetail)
    XCTAssertNotNil(detail())
    XCTAssertTrue(detail() === detail())
    detail()?.send(.plus)
    XCTAssertEqual(store.detail?.count, 1)
    store.send(.hideDetail)
    XCTAssertNil(detail())
  }

  func testElementStoresAreCachedPerIDAndRouteActions() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.addRow(1))
    store.send(.addRow(2))
    let rows = store.scope(state: \.rows, action: .rows)
    let second = rows.scope(id: 2)
    XCTAssertTrue(second === rows.scope(id: 2))
    second?.send(.tick)
    XCTAssertEqual(store.rows.map(\.ticks), [0, 1])
    store.send(.removeRow(2))
    XCTAssertNil(rows.scope(id: 2))
  }
}

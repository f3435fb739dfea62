import ComposableCore
import XCTest

@MainActor
final class CaseKeyPathTests: XCTestCase {
  func testCaseKeyPathEmbedsAndExtracts() async {
    let child = AnyCasePath(\KeyPathParent.Action.Cases.counter)
    XCTAssertEqual(child.embed(.plus), .counter(.plus))
    XCTAssertEqual(child.extract(.counter(.rename("a"))), .rename("a"))
    XCTAssertNil(child.extract(.showDetail))

    let deeper = AnyCasePath(\KeyPathParent.Action.Cases.counter.rename)
    XCTAssertEqual(deeper.embed("b"), .counter(.rename("b")))
    XCTAssertEqual(deeper.extract(.counter(.rename("c"))), "c")
    XCTAssertNil(deeper.extract(.counter(.plus)))

    let row = AnyCasePath(\KeyPathParent.Action.Cases.rows[id: 2])
    XCTAssertEqual(row.extract(.rows(.element(id: 2, action: .tick))), .tick)
    XCTAssertNil(row.extract(.rows(.element(id: 3, action: .tick))))
    XCTAssertEqual(row.embed(.stop), .rows(.element(id: 2, action: .stop)))

    let whole = AnyCasePath(\KeyPathParent.Action.Cases.self)
    XCTAssertEqual(whole.extract(.showSheet), .showSheet)
  }

  func testCaseSubscriptIsAndCallAsFunction() async {
    let action = KeyPathParent.Action.sheet(.presented(.loaded("x")))
    XCTAssertEqual(action[case: \.sheet.presented.loaded], "x")
    XCTAssertNil(action[case: \.counter])
    XCTAssertTrue(action.is(\.sheet))
    XCTAssertFalse(action.is(\.sheet.dismiss))
    let dismiss: KeyPathParent.Action = (\KeyPathParent.Action.Cases.sheet.dismiss)()
    XCTAssertEqual(dismiss, .sheet(.dismiss))
    let added: KeyPathParent.Action = (\KeyPathParent.Action.Cases.addRow)(4)
    XCTAssertEqual(added, .addRow(4))
  }

  func testCasePathNames() async {
    XCTAssertEqual(AnyCasePath(\KeyPathParent.Action.Cases.counter).name, "counter")
    XCTAssertEqual(
      AnyCasePath(\KeyPathParent.Action.Cases.sheet.presented).name, "sheet.presented")
    XCTAssertEqual(AnyCasePath(\KeyPathParent.Action.Cases.rows[id: 2]).name, "rows[id: 2]")
    XCTAssertNil(AnyCasePath(\KeyPathParent.Action.Cases.self).name)
    // The `AnyCasePath` spelling: a static property named after the case.
    XCTAssertEqual(AnyCasePath<Parent.Action, Counter.Action>.counter.name, "counter")
    XCTAssertEqual(
      AnyCasePath<Parent.Action, Counter.Action>.counter.appending(
        AnyCasePath(\Counter.Action.Cases.rename)
      ).name,
      "counter.rename")
    // Built inside a function: the function's name is not the case's.
    let inline = AnyCasePath<Parent.Action, Counter.Action>(Parent.Action.counter) {
      if case let .counter(action) = $0 { action } else { nil }
    }
    XCTAssertNil(inline.name)
    XCTAssertEqual(
      AnyCasePath<Parent.Action, Int>(name: "custom", embed: Parent.Action.addRow) { _ in nil }
        .name,
      "custom")
  }

  func testCaseKeyPathIdentityIsTheKeyPath() async {
    XCTAssertEqual(
      AnyCasePath(\KeyPathParent.Action.Cases.counter).id,
      AnyCasePath(\KeyPathParent.Action.Cases.counter).id)
    XCTAssertNotEqual(
      AnyCasePath(\KeyPathParent.Action.Cases.counter).id,
      AnyCasePath(\KeyPathParent.Action.Cases.detail).id)
  }

  func testScopeIfLetPresentationAndForEachTakeCaseKeyPaths() async {
    let store = Store(initialState: KeyPathParent.State()) { KeyPathParent() }
    store.send(.counter(.plus))
    XCTAssertEqual(store.counter.count, 1)
    store.send(.showDetail)
    store.send(.detail(.rename("d")))
    XCTAssertEqual(store.detail?.name, "d")
    store.send(.showSheet)
    store.send(.sheet(.presented(.plus)))
    XCTAssertEqual(store.sheet?.count, 1)
    store.send(.sheet(.dismiss))
    XCTAssertNil(store.sheet)
    store.send(.addRow(7))
    store.send(.rows(.element(id: 7, action: .tick)))
    XCTAssertEqual(store.rows[id: 7]?.ticks, 1)
  }

  func testScopeOnAnEnumStateCaseTakesCaseKeyPaths() async {
    let store = Store(initialState: Session.State.loggedOut) { Session() }
    let (_, issues) = withIssueCollection { store.send(.loggedIn(.plus)) }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(
      issues.first?.message.hasPrefix(
        "A \"Scope\" at \"ComposableCoreTests/CaseKeyPathFeatures.swift:") ?? false)
    store.send(.logIn)
    store.send(.loggedIn(.plus))
    XCTAssertEqual(store.state, .loggedIn(Counter.State(count: 1)))
  }

  func testStoreScopeTakesCaseKeyPaths() async {
    let store = Store(initialState: KeyPathParent.State()) { KeyPathParent() }
    let counter = store.scope(state: \.counter, action: \.counter)
    XCTAssertTrue(counter === store.scope(state: \.counter, action: \.counter))
    counter.send(.plus)
    XCTAssertEqual(store.counter.count, 1)

    let absent: StoreOf<Counter>? = store.scope(state: \.detail, action: \.detail)
    XCTAssertNil(absent)
    store.send(.showDetail)
    let detail: StoreOf<Counter>? = store.scope(state: \.detail, action: \.detail)
    detail?.send(.plus)
    XCTAssertEqual(store.detail?.count, 1)
  }

  func testAKeyPathOfOneCaseAndOneThroughCaseScopeToOneStore() async {
    let store = Store(initialState: KeyPathParent.State()) { KeyPathParent() }
    // `\.counter` is the key path to the `AllCasePaths` member; the explicit root goes
    // through `Case`.
    let member = store.scope(state: \.counter, action: \.counter)
    let throughCase = store.scope(
      state: \.counter, action: \KeyPathParent.Action.Cases.counter)
    XCTAssertTrue(member === throughCase)
    let detail: StoreOf<Counter>? = store.scope(
      state: \.detail, action: \KeyPathParent.Action.Cases.detail)
    XCTAssertNil(detail)
  }

  func testCaseSubscriptAndIsTakeAKeyPathOfOneCase() async {
    let action = KeyPathParent.Action.addRow(3)
    let member: CaseMemberKeyPath<KeyPathParent.Action, Int> = \.addRow
    XCTAssertEqual(action[case: member], 3)
    XCTAssertTrue(action.is(member))
    XCTAssertFalse(KeyPathParent.Action.showSheet.is(member))
    XCTAssertNil(KeyPathParent.Action.showSheet[case: member])
  }

  func testUntypedScopeOfOptionalStateIsAStoreOfOptionalState() async {
    let store = Store(initialState: KeyPathParent.State()) { KeyPathParent() }
    let untyped = store.scope(state: \.detail, action: \.detail)
    XCTAssertTrue(type(of: untyped) == Store<Counter.State?, Counter.Action>.self)
  }
}
